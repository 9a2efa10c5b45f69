"""AgentWorld's baselines and ablations as `condition=`: each plays forge_vanguard with the rule as
exact null steering, and each changes what its definition says and nothing else."""

from __future__ import annotations

import typing

import pytest

from mam_bench.models.crafting import exploration
from mam_bench.models.crafting.conditions import NO_ROLES_LINE, Condition
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.runner import PairSpec, run_pair

CONDITIONS = typing.get_args(Condition)


@pytest.mark.parametrize("condition", CONDITIONS)
def test_every_condition_runs_forge_vanguard_with_the_rule_as_null_steering(condition: str, tmp_path) -> None:
    spec = PairSpec.build(world="crafting", seed=1, params={"task": "forge_vanguard", "condition": condition})
    res = run_pair(spec, out=tmp_path)
    assert res["lift"] == 0 and res["treatment"]["final"] == res["reference"]["final"]
    assert res["params"]["condition"] == condition
    assert res["treatment"]["audit"]["identity_holds"]


def test_a_condition_outside_the_list_is_refused() -> None:
    with pytest.raises(ValueError, match="condition"):
        CraftingWorld.Params(task="forge_vanguard", condition="no_chat")


def world(condition: str, seed: int = 2) -> CraftingWorld:
    return CraftingWorld(task="forge_vanguard", condition=condition, seed=seed)


def test_single_agent_holds_every_agents_abilities_and_every_target() -> None:
    solo, team = world("single_agent"), world("standard")
    assert len(solo.actors) == 1
    (agent,) = solo.actors
    for a in team.actors:
        for skill, level in a.skills.items():
            assert agent.skills[skill] >= level
    assert set(agent.equipment) == {e for a in team.actors for e in a.equipment}
    assert agent.site == team.actors[0].site
    assert {t.to for t in solo.task.targets} == {0}
    assert CraftingWorld.Params(task="forge_vanguard", condition="single_agent").influence_count() == 1


@pytest.mark.parametrize("condition", ["no_communication", "shared_plan_only"])
def test_cut_communication_refuses_the_talking_tools_and_hides_the_others(condition: str) -> None:
    w = world(condition)
    miner, smelter = w.actors[0], w.actors[3]
    exploration.place(w, smelter, miner.site)
    miner.give("iron_ore", 1, -1)
    for action in (
        {"tool": "chat", "message": "hello"},
        {"tool": "transfer", "item": "iron_ore", "qty": 1, "to": 3},
        {"tool": "request", "item": "iron_bar", "qty": 1, "to": 3},
    ):
        ok, detail = w.execute(miner, action)
        assert not ok and "no communication" in detail
    obs = w.observe(0)
    assert obs.team == [(0, miner.username, miner.role)] and obs.here == [] and obs.chat == []
    prompt = obs.prompt_text()
    assert '"tool": "chat"' not in prompt and '"tool": "transfer"' not in prompt
    assert ("**Shared Plan:**" in prompt) == (condition == "shared_plan_only")
    standard = world("standard")
    exploration.place(standard, standard.actors[3], standard.actors[0].site)
    standard.actors[0].give("iron_ore", 1, -1)
    assert standard.execute(standard.actors[0], {"tool": "transfer", "item": "iron_ore", "qty": 1, "to": 3})[0]


def test_oracle_communication_lets_one_agent_read_every_message() -> None:
    for condition, oracle_reads in (("oracle_communication", True), ("standard", False)):
        w = world(condition)
        w.execute(w.actors[0], {"tool": "chat", "message": "ore for the smelter only", "to": 3})
        leader = next(a.actor_id for a in w.actors if a.coordinator)
        assert bool(w.observe(leader).chat) == oracle_reads
        assert w.observe(3).chat  # the addressee reads it either way
        assert not w.observe(1).chat  # nobody else does


def test_no_roles_hides_names_and_roles_in_the_prompt_only() -> None:
    w, standard = world("no_roles"), world("standard")
    prompt = w.observe(4).prompt_text()
    assert "Agent_5" in prompt and "not pre-assigned" in prompt
    names = [a.username for a in standard.actors]  # smith_1, miner_2, ...: the task's own text may still say "smiths"
    assert not [n for n in names if n in prompt] and "(smith)" not in prompt
    assert [n for n in names if n in standard.observe(4).prompt_text()]
    assert [a.skills for a in w.actors] == [a.skills for a in standard.actors]


def test_no_docs_drops_the_task_documentation() -> None:
    assert "**Relevant Context:**" in world("standard").observe(0).prompt_text()
    assert "**Relevant Context:**" not in world("no_docs").observe(0).prompt_text()


def test_random_spawn_draws_cells_per_seed_and_keeps_the_same_start_for_both_runs() -> None:
    spawns = {tuple(a.xy for a in world("random_spawn", seed=s).actors) for s in range(6)}
    assert len(spawns) > 1
    assert tuple(a.xy for a in world("random_spawn", 4).actors) == tuple(
        a.xy
        for a in CraftingWorld(task="forge_vanguard", condition="random_spawn", seed=4, influence_ids=(0, 5)).actors
    )


def test_the_text_carries_the_condition_back() -> None:
    from mam_bench.models.crafting.observe import CraftingObservation

    for condition in CONDITIONS:
        obs = world(condition).observe(0)
        assert CraftingObservation.from_text(obs.to_text()) == obs


def test_the_prompt_says_what_a_move_costs() -> None:
    w = CraftingWorld(task="forge_vanguard", seed=0)
    miner = w.actors[0]
    trips = dict(w.observe(0).trips)
    for site, n in trips.items():
        here = miner.xy
        steps = 0
        while miner.site != site:
            exploration.travel(w, miner, site)
            steps += 1
        assert steps == n, site
        miner.xy, miner.site = here, "mine"
    assert "trips " in w.observe(0).prompt_text()
    assert set(dict(CraftingWorld(task="forge_vanguard", seed=0, travel="abstracted").observe(0).trips).values()) == {1}


def test_conditions_combine_as_upstreams_switches() -> None:
    """`no_roles,random_spawn` spawns as random_spawn does and hides roles as no_roles does."""
    both, spawn = world("no_roles,random_spawn"), world("random_spawn")
    assert [a.site for a in both.actors] == [a.site for a in spawn.actors]
    assert [a.site for a in both.actors] != [a.site for a in world("standard").actors]
    assert NO_ROLES_LINE in both.observe(0).user_prompt() and NO_ROLES_LINE not in spawn.observe(0).user_prompt()
    assert both.params.condition == "no_roles,random_spawn"


@pytest.mark.parametrize(
    ("value", "why"),
    [("no_roles,no_chat", "unknown condition 'no_chat'"), ("no_roles,no_roles", "named twice"),
     ("standard,no_docs", "standard combines with nothing")],
)  # fmt: skip
def test_a_bad_combination_is_refused_by_name(value: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        CraftingWorld.Params(task="forge_vanguard", condition=value)
