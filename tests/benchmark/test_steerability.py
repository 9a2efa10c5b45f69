"""`mam-bench steerability`: refusals before any file is touched, a resumable run of the reduced
benchmark, per-scenario doses, and the headroom arithmetic on constructed lifts."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats as sps

from mam_bench.benchmark.definition import load_benchmark
from mam_bench.benchmark.steerability import profile_suite, profiles
from tests.benchmark.conftest import TINY
from tests.support.cli import cli_in_process


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["voter-spread", "--seeds", "1000-1003"], "seeds"),  # held-out seeds are never calibration
        (["voter-spread", "--seeds", "500"], "seeds"),
        (["no-such", "--seeds", "500-501"], "scenario"),
        (["voter-spread", "--seeds", "500-501", "--tier", "huge"], "tier"),
        (["voter-spread", "--seeds", "500-501", "--controllers", "stay,llm"], "controllers"),
        (["voter-spread", "--seeds", "500-501", "--oracle-option", "depth"], "oracle_option"),
    ],
)
def test_bad_input_exits_2_before_any_file(tmp_path: Path, tiny: Path, capsys, args: list[str], field: str) -> None:
    out = tmp_path / "s"
    code, err = cli_in_process(capsys, "steerability", *args, "--definition", str(tiny), "--out", str(out))
    assert code == 2 and err.startswith(f"error: {field}: "), err
    assert not out.exists()


def test_run_writes_the_profile_and_resumes(tmp_path: Path, tiny: Path, capsys) -> None:
    out = tmp_path / "s"
    argv = ["steerability", "voter-spread", "--seeds", "500-502", "--definition", str(tiny), "--out", str(out)]
    argv += ["--controllers", "heuristic,stay,mimic,rule", "--jobs", "1"]
    code, err = cli_in_process(capsys, *argv)
    assert code == 0, err
    lifts = pd.read_csv(out / "steerability.csv")
    assert set(lifts["controller"]) == {"heuristic", "stay", "mimic", "rule"}
    assert (lifts["n"] == 3).all() and (lifts["horizon"] == 3).all()
    rule = lifts[lifts["controller"] == "rule"].iloc[0]
    assert rule["mean"] == rule["ci_low"] == rule["ci_high"] == 0  # null steering is exact
    code, _ = cli_in_process(capsys, *argv)
    assert code == 0 and len(pd.read_csv(out / "table.csv")) == 12  # resumed: nothing played twice


def test_a_scenario_dose_overrides_the_tier(tmp_path: Path) -> None:
    data = {**TINY, "scenarios": [{**TINY["scenarios"][2], "doses": {"quick": {"rounds": 7, "influence": 3}}}]}
    path = tmp_path / "d.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    bench = load_benchmark(path)
    suite = profile_suite(bench, list(bench.scenarios), "quick", [500, 501], ("stay",))
    assert (suite.cases[0].rounds, suite.cases[0].influence) == (7, 3)
    assert bench.tier_for("full", bench.scenarios[0]).rounds is None  # other tiers keep their own


def test_headroom_is_oracle_minus_the_best_placebo_by_mean(tiny: Path) -> None:
    bench = load_benchmark(tiny)
    lift = {
        "oracle": [3.0, 2.0, 4.0, 1.0],
        "stay": [1.0, -1.0, 0.0, 2.0],  # mean 0.5: the best placebo
        "mimic": [0.0, 0.5, -2.0, 0.0],
        "rule": [0.0, 0.0, 0.0, 0.0],
        "heuristic": [1.0, 1.0, 2.0, 0.0],
    }
    rows = [
        {"case": f"voter-spread/{c}", "seed": 500 + k, "lift": v, "valid": True}
        for c, vs in lift.items()
        for k, v in enumerate(vs)
    ]
    lifts, heads = profiles(bench, [bench.scenarios[2]], "quick", pd.DataFrame(rows))
    head = heads.iloc[0]
    diff = np.array([3 - 1, 2 + 1, 4 - 0, 1 - 2])
    half = sps.t.ppf(0.975, 3) * diff.std(ddof=1) / math.sqrt(4)
    assert head["best_placebo"] == "stay" and head["placebo_lift"] == pytest.approx(0.5)
    assert head["headroom"] == pytest.approx(diff.mean())
    assert (head["ci_low"], head["ci_high"]) == pytest.approx((diff.mean() - half, diff.mean() + half))
    assert not head["moves"] and "includes 0" in head["reason"]  # a seed where stay beat the oracle
    heuristic = lifts[lifts["controller"] == "heuristic"].iloc[0]
    assert heuristic["mean"] == pytest.approx(1.0) and heuristic["n"] == 4
