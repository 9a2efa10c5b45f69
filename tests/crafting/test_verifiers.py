"""Every task's verifier on hand-built final states: pass, fail, and partial checkpoints."""

import pytest

from mam_bench.models.crafting.tasks import all_tasks, checkpoint_progress, psr, verify


def _state(task, fraction: float) -> dict:
    """A final state meeting each checkpoint to `fraction` of its target (rounded down)."""
    st = {
        "inventories": {},
        "sites": {i: a.spawn for i, a in enumerate(task.agents)},
        "crafted": {},
        "harvested": {},
        "kills": {},
        "health": {},
        "known": {},
        "trades": 0,
    }
    for cp in task.checkpoints:
        n = int(cp.qty * fraction)
        holders = task.holders(cp.scope)
        if cp.kind == "kills":
            st["kills"][cp.item] = n
        elif cp.kind == "alive":
            st["health"] = {i: (20 if k < n else 0) for k, i in enumerate(holders)}
        elif cp.kind == "discovered":
            for i in holders[:n]:
                st["known"].setdefault(i, []).append(cp.site)
        elif cp.kind == "traded":
            st["trades"] = n
        elif cp.kind == "held":
            holder = task.holders(cp.scope)[0]
            inv = st["inventories"].setdefault(holder, {})
            inv[cp.item] = inv.get(cp.item, 0) + n
        elif cp.kind in ("crafted", "harvested"):
            st[cp.kind][cp.item] = n
        else:
            for i in task.holders(cp.scope)[:n]:
                st["sites"][i] = cp.site
            for i in task.holders(cp.scope)[n:]:
                st["sites"][i] = "forest" if cp.site != "forest" else "town"
    return st


@pytest.mark.parametrize("name", sorted(all_tasks()))
def test_verifier_pass_fail_partial(name):
    task = all_tasks()[name]
    ok, text = verify(task, _state(task, 1.0))
    assert ok == 1 and psr(task, _state(task, 1.0)) == 1.0
    assert all(f"{c.name}: {c.qty}/{c.qty}" in text for c in task.checkpoints)
    empty = {"inventories": {}, "sites": {}, "crafted": {}, "harvested": {}}
    assert verify(task, empty)[0] == 0 and psr(task, empty) == 0.0
    half = _state(task, 0.5)
    assert verify(task, half)[0] == 0
    expected = sum(min(1.0, int(c.qty * 0.5) / c.qty) for c in task.checkpoints) / len(task.checkpoints)
    assert psr(task, half) == pytest.approx(expected)
    assert psr(task, half, "binary") == 0.0
    # one checkpoint short, the rest met: binary PSR counts the others
    st = _state(task, 1.0)
    cp = task.checkpoints[-1]
    if cp.kind == "kills":
        st["kills"][cp.item] -= 1
    elif cp.kind == "alive":
        st["health"][task.holders(cp.scope)[0]] = 0
    elif cp.kind == "discovered":
        st["known"] = {i: [x for x in sites if x != cp.site] for i, sites in st["known"].items()}
    elif cp.kind == "traded":
        st["trades"] -= 1
    elif cp.kind == "held":
        st["inventories"][task.holders(cp.scope)[0]][cp.item] -= 1
    elif cp.kind in ("crafted", "harvested"):
        st[cp.kind][cp.item] -= 1
    else:
        st["sites"][task.holders(cp.scope)[0]] = "forest"
    assert verify(task, st)[0] == 0
    k = len(task.checkpoints)
    assert psr(task, st, "binary") == pytest.approx((k - 1) / k)


def test_forge_vanguard_hand_built_states():
    task = all_tasks()["forge_vanguard"]
    smiths = {4: {"heavysword": 1, "axe": 1}, 5: {"heavysword": 1}}
    good = {"inventories": smiths, "crafted": {"iron_bar": 7, "stick": 4}}
    assert verify(task, good) == (
        1,
        "iron bars smelted: 7/7; sticks made: 3/3; heavyswords held by smiths: 2/2; axe held by smiths: 1/1",
    )
    # the swords are in the leader's bag, not the smiths': the held checkpoints fail
    moved = {"inventories": {9: {"heavysword": 2, "axe": 1}}, "crafted": {"iron_bar": 7, "stick": 4}}
    assert verify(task, moved)[0] == 0
    assert [g for _, g, _ in checkpoint_progress(task, moved)] == [7, 4, 0, 0]
    assert psr(task, moved) == 0.5
    partial = {"inventories": {4: {"heavysword": 1}}, "crafted": {"iron_bar": 4, "stick": 4}}
    assert psr(task, partial) == pytest.approx((4 / 7 + 1 + 1 / 2 + 0) / 4)


def test_staff_quest_like_agentworld_task_01():
    task = all_tasks()["staff_quest"]
    assert verify(task, {"inventories": {0: {"staff": 1}}, "crafted": {"stick": 8}})[0] == 1
    assert verify(task, {"inventories": {0: {"stick": 8}}, "crafted": {"stick": 8}})[0] == 0
