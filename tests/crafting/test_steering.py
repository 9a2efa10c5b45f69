"""Heuristic steering: shortage lowers Forge Vanguard's progress (area under PSR); the run directory is complete."""

import json
import statistics

from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.params import STATIC_WORLD
from mam_bench.protocol import Decision
from mam_bench.records import read_jsonl
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round

PLAN = {"strategy": "shared_plan", **STATIC_WORLD}  # the heuristics' home ground: the shared plan


def test_shortage_two_agents_forge_vanguard_positive_mean_lift():
    lifts = []
    for seed in range(20, 40):
        res = run_pair(
            PairSpec.build(
                world="crafting",
                seed=seed,
                params={**PLAN, "task": "forge_vanguard"},
                controller="heuristic",
                objective="shortage",
            )
        )
        assert res["influence_ids"] == [0, 1] and res["direction"] == -1
        assert res["treatment"]["audit"]["identity_holds"]
        lifts.append(res["lift"])
    assert statistics.mean(lifts) > 0.2 and min(lifts) > 0  # progress_all lift (notes/ownwork.md)


def test_accelerate_runs_and_keeps_the_audit_identity():
    res = run_pair(
        PairSpec.build(
            world="crafting",
            seed=1,
            params={**PLAN, "task": "grand_armory"},
            controller="heuristic",
            objective="accelerate",
            influence=4,
        )
    )
    assert res["treatment"]["audit"]["identity_holds"] and res["direction"] == 1
    assert res["treatment"]["final"]["sr"] == 1.0


def test_cli_equivalent_run_writes_a_complete_directory(tmp_path):
    spec = PairSpec.build(
        world="crafting",
        seed=0,
        params={**PLAN, "task": "forge_vanguard"},
        controller="heuristic",
        objective="shortage",
    )
    res = run_pair(spec, out=tmp_path)
    for name in ("spec.json", "result.json", "reference.jsonl", "treatment.jsonl", "board.jsonl", "decisions.jsonl"):
        assert (tmp_path / name).exists(), name
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["metric"] == "progress_all" and result["secondary_metric"] == "psr"  # shortage counts everyone
    assert "progress" in result["outcomes"]
    assert result["lift"] == res["lift"] > 0
    decisions = read_jsonl(tmp_path / "decisions.jsonl")
    assert {d["actor_id"] for d in decisions} == {0, 1}
    assert len(read_jsonl(tmp_path / "board.jsonl")) > 0  # facts, board on by default


def test_an_action_illegal_by_its_turn_is_a_logged_failure():
    w = CraftingWorld(task="forge_vanguard", seed=0, influence_ids=(0, 1), turn_order="fixed")
    w.stock["ore1"] = 1
    entries = play_round(
        w,
        {
            0: Decision(action={"tool": "harvest", "node": "ore1"}),
            1: Decision(action={"tool": "harvest", "node": "ore1"}),
        },
    )
    assert [e.outcome for e in entries] == ["accepted", "blocked"]
    assert "depleted" in entries[1].detail
    bad = play_round(w, {0: Decision(action={"tool": "fly"}), 1: Decision.policy_error("timeout")})
    assert [e.outcome for e in bad] == ["invalid", "policy_error"]
    assert [a["tool"] for a in w.log if a["round"] == 1 and a["agent"] in (0, 1)] == ["invalid", "sleep"]


def test_accelerate_with_the_smelter_agent_finishes_earlier():
    res = run_pair(
        PairSpec.build(
            world="crafting",
            seed=21,
            params={**PLAN, "task": "forge_vanguard", "rounds": 18},
            controller="heuristic",
            objective="accelerate",
            influence_ids=(3,),
        )
    )
    assert res["reference"]["final"]["sr"] == 0.0 and res["treatment"]["final"]["sr"] == 1.0
    assert res["lift"] > 0 and res["treatment"]["rounds"] < 18
