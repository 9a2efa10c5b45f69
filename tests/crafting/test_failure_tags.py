"""Failure-mode tags on a hand-built trajectory: every count below is read off the log by hand,
following the definitions in metrics.failure_tags (forge_vanguard's agents: 0 miner, 3 smelter,
4 smith, 9 leader)."""

from mam_bench.models.crafting.agents import Obligation
from mam_bench.models.crafting.metrics import failure_tags
from mam_bench.models.crafting.model import CraftingWorld


def _act(i: int, r: int, agent: int, tool: str, args: dict, parents=(), ok: bool = True) -> dict:
    return {
        "id": i,
        "round": r,
        "agent": agent,
        "tool": tool,
        "args": args,
        "ok": ok,
        "detail": "",
        "site": "",
        "parents": list(parents),
    }


def _world() -> CraftingWorld:
    w = CraftingWorld(task="forge_vanguard", seed=0)
    w.log = [
        _act(0, 0, 9, "sleep", {}),
        _act(1, 1, 9, "sleep", {}),
        _act(2, 2, 9, "sleep", {}),  # the leader's 3rd sleep in a row: idle 1
        _act(3, 3, 9, "sleep", {}),  # 4th: idle 2
        _act(4, 0, 0, "harvest", {"node": "ore1"}),  # iron_ore nobody used, not a target: duplicate 1
        _act(5, 0, 3, "craft", {"item": "iron_bar"}),  # used by action 6: not duplicate
        _act(6, 1, 3, "transfer", {"item": "iron_bar", "qty": 1, "to": 4}, parents=[5]),
        _act(7, 1, 4, "harvest", {"node": "coal1"}),  # a smith mining: role violation 1, unused: duplicate 2
        _act(8, 2, 4, "craft", {"item": "heavysword"}),  # unused, but a target item: no duplicate
        _act(9, 2, 0, "harvest", {"node": "ore1"}, ok=False),  # failed: counted nowhere
        _act(10, 4, 9, "sleep", {}),  # streaks are per agent: the leader's 5th sleep in a row, idle 3
    ]
    w.requests = [
        {"id": 11, "round": 1, "frm": 4, "to": 3, "item": "iron_bar", "qty": 2, "recipient": 4, "status": "pending"},
        {"id": 12, "round": 1, "frm": 4, "to": 3, "item": "iron_bar", "qty": 2, "recipient": 4, "status": "accepted"},
    ]
    w.orders = [
        {"id": 13, "round": 2, "frm": 5, "item": "stick", "qty": 2, "filled": 1},  # unfilled: stale
        {"id": 14, "round": 2, "frm": 5, "item": "logs", "qty": 1, "filled": 1},  # filled: not stale
    ]
    w.actors[3].obligations = [
        Obligation("iron_bar", 2, 4, "request:12", delivered=1),  # still owed: unfulfilled hand-off
        Obligation("iron_bar", 1, 5, "request:15", delivered=1),  # delivered: fine
        Obligation("iron_bar", 3, 3, "plan"),  # not a hand-off
    ]
    return w


def test_tags_on_a_hand_built_trajectory():
    assert failure_tags(_world()) == {
        "idle": 3,
        "stale_request": 2,  # one pending request + one unfilled order
        "duplicate_work": 2,
        "role_violation": 1,
        "unfulfilled_handoff": 1,
    }


def test_tags_reach_the_metrics():
    m = _world().metrics()
    assert (m["tag_idle"], m["tag_role_violation"], m["tag_unfulfilled_handoff"]) == (3.0, 1.0, 1.0)
