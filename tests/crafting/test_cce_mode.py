"""`cce_mode=llm_chained` through the paired runner: the judged CCE sits beside the provenance CCE in
result.json, for both runs. The judge is a scripted LangChain model (tests/crafting/test_judge.py)
built from the judged world's own causal graph, so its expected answers are known."""

from mam_bench.models.crafting.metrics import success_actions
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.runner import PairSpec, run_pair
from tests.crafting.test_judge import ScriptedJudge, _finished, _graph


def _spec(seed: int) -> PairSpec:
    params = {"task": "staff_quest", "cce_mode": "llm_chained", "judge_model": "scripted:judge"}
    return PairSpec.build(world="crafting", seed=seed, params=params, controller="rule", influence=1)


def test_exact_edge_judge_reproduces_the_provenance_cce_in_both_runs(monkeypatch, tmp_path):
    seed = _finished("staff_quest", 0).seed
    monkeypatch.setattr(
        CraftingWorld,
        "judge_chat_model",
        lambda self: ScriptedJudge(success=sorted(success_actions(self.task, self)), parents=_graph(self)),
    )
    res = run_pair(_spec(seed), tmp_path)
    for run in ("reference", "treatment"):
        judged = res["judged"][run]
        assert judged["cce_llm"] == judged["cce"] == res[run]["final"]["cce"] and 0 < judged["cce"] < 1
        assert judged["judge_model"] == "ScriptedJudge"
    # rule steering: the treatment's log is the reference's, so the shared cache answers it all
    assert res["judged"]["reference"]["calls"] > 0 and res["judged"]["treatment"]["calls"] == 0
    assert res["judged"]["treatment"]["cache_hits"] == res["judged"]["reference"]["calls"]
    assert (tmp_path / "judge_cache.sqlite").exists()


def test_yes_to_everything_is_at_least_the_provenance_cce_and_the_cache_answers_again(monkeypatch, tmp_path):
    seed = _finished("staff_quest", 0).seed
    monkeypatch.setattr(
        CraftingWorld, "judge_chat_model", lambda self: ScriptedJudge(success=[], parents={}, yes_to_all=True)
    )
    res = run_pair(_spec(seed), tmp_path)
    judged = res["judged"]["treatment"]
    assert judged["cce_llm"] == 1.0 >= judged["cce"] > 0
    assert (
        res["judged"]["reference"]["cache_hits"] == 0
        and judged["cache_hits"] == judged["calls"] + judged["cache_hits"] > 0
    )


def test_provenance_mode_asks_no_judge(monkeypatch):
    monkeypatch.setattr(CraftingWorld, "judge_chat_model", lambda self: (_ for _ in ()).throw(AssertionError("asked")))
    res = run_pair(
        PairSpec.build(world="crafting", seed=0, params={"task": "staff_quest"}, controller="rule", influence=1)
    )
    assert "judged" not in res
