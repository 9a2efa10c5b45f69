"""Skill levels that matter: a node or recipe may need a level, a task may give an agent less, and
the rule (which knows its own skills) never tries what its level does not allow."""

from __future__ import annotations

from mam_bench.models.crafting import exploration
from mam_bench.models.crafting.catalog import catalog
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.tasks import all_tasks
from mam_bench.runner import PairSpec, prepare, run_reference


def below_a_level(task_name: str) -> list[tuple[int, str]]:
    """(agent, node or recipe) pairs where the task gives an agent the skill but less than the level."""
    cat = catalog()
    task = all_tasks()[task_name]
    needs = [(n.node_id, n.skill, n.level) for n in cat.nodes.values() if n.level > 1]
    needs += [(r.output, r.skill, r.level) for r in cat.recipes.values() if r.level > 1]
    out = []
    for i, spec in enumerate(task.agents):
        skills = spec.skills if spec.skills is not None else cat.roles[spec.role].skills
        out += [(i, what) for what, skill, level in needs if 0 < skills.get(skill, 0) < level]
    return out


def test_at_least_four_tasks_give_a_agent_less_than_a_level_it_meets() -> None:
    assert len([t for t in all_tasks() if below_a_level(t)]) >= 4


def test_a_level_below_the_recipe_fails_with_the_level_named() -> None:
    w = CraftingWorld(task="grand_armory", seed=0)
    apprentice, smith = (w.actors[i] for i in (10, 8))
    assert apprentice.skills["smithing"] < catalog().recipes["heavysword"].level <= smith.skills["smithing"]
    for a in (apprentice, smith):
        exploration.place(w, a, "town")
        a.give("iron_bar", 3, -1)
        a.give("stick", 1, -1)
    ok, detail = w.execute(apprentice, {"tool": "craft", "item": "heavysword"})
    assert not ok and "smithing level 20 (has 12)" in detail
    assert w.execute(apprentice, {"tool": "craft", "item": "axe"})[0]  # no level: any smith
    assert w.execute(smith, {"tool": "craft", "item": "heavysword"})[0]


def test_the_rule_never_tries_what_its_level_does_not_allow() -> None:
    for task in [t for t in all_tasks() if below_a_level(t)]:
        for seed in range(3):
            world, _ = run_reference(prepare(PairSpec(world="crafting", seed=seed, params={"task": task}, influence=0)))
            assert not [e for e in world.log if "level" in e.get("detail", "")], task


def test_the_prompt_names_the_level() -> None:
    from mam_bench.models.crafting.observe import relevant_context

    assert "smithing level 20 at anvil" in relevant_context("forge_vanguard")
