"""CCE on hand-built trajectories with a known contributing set gives exactly the expected fraction."""

import asyncio
import json
from fractions import Fraction

from mam_bench.models.crafting.metrics import cce, chat_edges, contributing
from mam_bench.models.crafting.params import STATIC_WORLD
from mam_bench.runner import PairSpec, prepare, run_treatment
from tests.crafting.scripted import ScriptedLLM


def _a(i, r, agent, tool, parents=(), **args):
    return {
        "id": i,
        "round": r,
        "agent": agent,
        "tool": tool,
        "args": args,
        "ok": True,
        "site": "town",
        "parents": list(parents),
    }


def test_pure_graph_idle_agent_wasted_craft_transfer_chain():
    acts = [
        _a(0, 0, 0, "harvest", node="ore1"),  # feeds the chain
        _a(1, 0, 1, "sleep"),  # idle agent
        _a(2, 0, 2, "harvest", node="ore2"),  # feeds only the wasted craft
        _a(3, 1, 0, "transfer", [0], item="iron_ore", to=2),
        _a(4, 1, 1, "sleep"),
        _a(5, 1, 2, "craft", [2], item="iron_bar"),  # wasted: its bar is never used
        _a(6, 2, 0, "sleep"),
        _a(7, 2, 1, "sleep"),
        _a(8, 2, 2, "craft", [3], item="iron_bar"),  # success action
    ]
    assert contributing(acts, {8}) == {0, 3, 8}
    res = cce(acts, {8}, succeeded=True)
    assert res["cce"] == 3 / 9
    assert res["pac"] == {0: 2 / 3, 1: 0.0, 2: 1 / 3}
    assert cce(acts, {8}, succeeded=False)["cce"] == 0.0  # a failed task scores 0


def test_chat_counts_only_when_a_later_contributing_action_answers_it():
    acts = [
        _a(0, 0, 0, "chat", message="smelter_1 please craft iron_bar"),
        _a(1, 0, 1, "chat", message="nice weather"),
        _a(2, 1, 1, "craft", item="iron_bar"),
        _a(3, 5, 1, "craft", item="iron_bar"),
    ]
    names = {0: "leader_1", 1: "smelter_1"}
    edges = chat_edges(acts, names)
    assert edges == [(0, 2)]
    res = cce(acts, {2}, True, edges)
    assert res["contributing"] == [0, 2] and res["cce"] == 2 / 4
    assert res["cce_no_chat"] == 1 / 2  # chat left out of both C and T
    assert cce(acts, {3}, True, edges)["contributing"] == [3]  # round 5 is outside the 3-round window


def _staff_script() -> dict:
    """staff_quest, fixed order (lumberjack 0, woodworker 1, crafter 2); the expected set is known."""
    s = {}

    def put(r, aid, action):
        s[(r, aid)] = json.dumps(action)

    put(0, 0, {"tool": "harvest", "node": "tree1"})  # id 0   in C
    put(1, 0, {"tool": "harvest", "node": "tree1"})  # id 3   in C
    put(2, 0, {"tool": "harvest", "node": "tree2"})  # id 6   in C (moved by transfer 12)
    put(3, 0, {"tool": "move_to", "site": "town"})  # id 9   in C
    put(3, 2, {"tool": "chat", "message": "woodworker_1 please make stick"})  # id 11 in C (answered by 16)
    put(4, 0, {"tool": "transfer", "item": "logs", "qty": 3, "to": 1})  # id 12  in C
    put(5, 1, {"tool": "craft", "item": "stick", "skill": "fletching"})  # id 16  in C
    put(6, 1, {"tool": "craft", "item": "stick"})  # id 19  in C
    put(7, 1, {"tool": "craft", "item": "stick"})  # id 22  wasted craft
    put(8, 1, {"tool": "transfer", "item": "stick", "qty": 5, "to": 2})  # id 25  in C
    put(8, 2, {"tool": "craft", "item": "staff", "skill": "crafting"})  # id 26  success
    return s


def _run(script, **params):
    spec = PairSpec.build(
        world="crafting",
        seed=0,
        influence=3,
        params={
            "task": "staff_quest",
            "turn_order": "fixed",
            "stock_jitter": 0,
            "strategy": "shared_plan",
            **STATIC_WORLD,
            **params,
        },
    )
    prep = prepare(spec)
    world, rows, board, _ = asyncio.run(run_treatment(prep, ScriptedLLM(script)))
    return world


def test_world_trajectory_gives_the_exact_fraction():
    world = _run(_staff_script())
    assert world.run.status == "success" and world.round == 9
    collab = world.collaboration()
    assert collab["contributing"] == [0, 3, 6, 9, 11, 12, 16, 19, 25, 26]
    assert Fraction(collab["cce"]).limit_denominator(100) == Fraction(10, 27)
    assert collab["cce_no_chat"] == 9 / 26
    assert collab["pac"] == {0: 5 / 9, 1: 3 / 9, 2: 2 / 9}
    assert world.metrics()["cce"] == 10 / 27


def test_failed_task_scores_zero():
    script = {k: v for k, v in _staff_script().items() if k[0] < 5}
    world = _run(script, rounds=9)
    assert world.run.status == "horizon_exhausted" and world.metrics()["sr"] == 0.0
    assert world.metrics()["cce"] == 0.0 and world.metrics()["psr"] == 0.0


def test_llm_judge_hook_for_chat_edges_records_its_model():
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from mam_bench.models.crafting.metrics import collaboration, judge_chat_edges

    world = _run(_staff_script())
    judge = FakeListChatModel(responses=['{"contributes": true}'] + ['{"contributes": false}'] * 50)
    judged = asyncio.run(judge_chat_edges(world, judge))
    assert judged["judge_model"] and judged["edges"] == [(11, 12)]  # the first candidate after the chat
    collab = collaboration(world, judged_edges=judged["edges"])
    assert 11 in collab["contributing"] and collab["cce"] == 10 / 27
    none = collaboration(world, judged_edges=[])
    assert 11 not in none["contributing"] and none["cce"] == 9 / 27
