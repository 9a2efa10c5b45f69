"""The data meets the issue's floor: items, recipes, chain depth, tasks, agent counts, categories."""

from collections import Counter

from mam_bench.models.crafting.catalog import catalog
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.tasks import all_tasks, get_task


def test_economy_size_and_depth():
    cat = catalog()
    assert len(cat.items) >= 25
    assert len(cat.recipes) >= 15
    assert max(cat.depth.values()) == 4  # house <- wall/door <- brick, plank, nails <- iron_bar <- ore
    assert cat.recipes["stick"].qty == 4 and cat.recipes["stick"].inputs == {"logs": 1}  # AgentWorld's
    assert cat.recipes["staff"].inputs == {"stick": 5, "bead": 1}


def test_tasks_cover_categories_and_sizes():
    tasks = all_tasks()
    assert len(tasks) >= 24
    sizes = [len(t.agents) for t in tasks.values()]
    assert min(sizes) == 3 and max(sizes) == 20
    cats = Counter(t.category for t in tasks.values())
    agentworld = {
        "crafting",
        "gathering",
        "trading",
        "construction",
        "coordination",
        "combat",
        "survival",
        "exploration",
    }
    assert set(cats) == agentworld and min(cats.values()) >= 2, cats
    assert all(t.checkpoints for t in tasks.values())


def test_each_new_mechanic_is_what_its_category_tests():
    """Combat tasks count kills, survival tasks have hunger and an alive checkpoint, exploration
    tasks need a hidden site, and trading tasks (the new ones) count atomic trades."""
    tasks = all_tasks().values()
    cat = catalog()
    for t in tasks:
        kinds = {c.kind for c in t.checkpoints}
        if t.category == "combat":
            assert "kills" in kinds, t.name
        if t.category == "survival":
            assert t.hunger > 0 and "alive" in kinds and t.staple in cat.recipes, t.name
        if t.category == "exploration":
            assert "discovered" in kinds, t.name
    assert sum("traded" in {c.kind for c in t.checkpoints} for t in tasks) >= 2


def test_forge_vanguard_is_the_spec_flagship():
    t = get_task("forge_vanguard_mini")
    assert t.name == "forge_vanguard" and t.budget == 40 and len(t.agents) == 10
    roles = [a.role for a in t.agents]
    assert roles.count("miner") == 3 and roles.count("smith") == 2 and roles.count("smelter") == 1
    assert {(x.item, x.qty) for x in t.targets} == {("heavysword", 2), ("axe", 1)}


def test_list_tasks_one_line_each():
    rows = CraftingWorld.Params.list_tasks()
    assert len(rows) == len(all_tasks())
    assert all("\n" not in d and d for _, d in rows)
    assert "forge_vanguard" in dict(rows)


def test_hidden_site_nodes_take_the_last_stream_indices():
    """A node's index keys its stock, yield, regrowth and rival draws: the exploration sites' nodes
    come after the rest, so adding them left every other node's draws where they were."""
    cat = catalog()
    order = cat.node_order
    hidden = [n for n in order if cat.nodes[n].site in cat.hidden]
    assert hidden and order[-len(hidden) :] == tuple(sorted(hidden))
    assert order[: -len(hidden)] == tuple(sorted(n for n in cat.nodes if n not in hidden))
