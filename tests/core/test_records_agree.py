"""Records agree with result.json: the final status is on the last written row, a caller's own
controller is recorded by its own name, and the printed table shows the compared reference."""

from __future__ import annotations

import json

from mam_bench.commands.run import format_result
from mam_bench.controller import Controller
from mam_bench.protocol import Decision
from mam_bench.records import read_jsonl
from mam_bench.runner import PairSpec, run_pair


class StayPut(Controller):
    """A caller's own controller (not registered): every influence agent defers to the rule."""

    name = "stay-put"

    async def decide(self, requests):
        return [Decision.follow_rule() for _ in requests]


def test_last_treatment_row_has_the_final_status(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=22, controller="heuristic", rounds=5)
    result = run_pair(spec, tmp_path)
    rows = read_jsonl(tmp_path / "treatment.jsonl")
    assert rows[-1]["status"] == result["treatment"]["status"] == "moving"  # still moving at round 5
    ref = read_jsonl(tmp_path / "reference.jsonl")
    assert ref[-1]["status"] == result["reference"]["status"]


def test_custom_controller_is_recorded_by_its_own_name(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=1, controller="heuristic", rounds=2)
    result = run_pair(spec, tmp_path, controller=StayPut())
    assert result["controller"]["name"] == "custom:stay-put"
    saved = json.loads((tmp_path / "result.json").read_text())
    assert saved["controller"]["name"] == "custom:stay-put"
    # --resume rebuilds the spec from spec.json: it must not find `heuristic` there
    assert json.loads((tmp_path / "spec.json").read_text())["controller"] == {"name": "custom:stay-put"}


def test_printed_table_shows_the_reference_at_the_compared_round(tmp_path) -> None:
    # pilot streams: seed 22's reference is still moving at round 5 (it settles at 14); the
    # default streams now block it after 4 rounds, which would leave nothing to compare past
    spec = PairSpec.build(world="schelling", seed=22, params={"streams": "pilot"}, controller="heuristic", rounds=5)
    result = run_pair(spec, tmp_path)
    ref_rows = read_jsonl(tmp_path / "reference.jsonl")
    assert len(ref_rows) - 1 > 5  # the reference goes on past round 5
    at5 = ref_rows[5]["metrics"]["oeh"]
    table = format_result(result)
    ref_line = next(line for line in table.splitlines() if line.startswith("reference "))
    assert ref_line.split()[2] == "5"
    assert f"{at5:.4f}" in ref_line
    assert "compared at round 5" in table
    assert abs(result["delta"] - (result["treatment"]["final"]["oeh"] - at5)) < 1e-12
