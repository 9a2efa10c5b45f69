"""Repeats are plays, not copies: `random` draws from a stream its repeat and placement draw
address, so a suite's repeats of one seed differ; a deterministic controller is judged within
each placement draw (different draws are different influence sets, not noise)."""

from __future__ import annotations

import pandas as pd

from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite
from tests.experiment.conftest import cli

SMALL = {"world": "schelling", "params": {"size": 10, "max_rounds": 60}, "influence": 4}


def test_random_repeats_give_three_different_lifts_per_seed(tmp_path, write_suite) -> None:
    suite = write_suite({"seeds": 3, "repeats": 3, "baselines": [], "cases": [{**SMALL, "controller": "random"}]})
    proc = cli("experiment", str(suite), "--out", str(tmp_path / "exp"))
    assert proc.returncode == 0, proc.stderr
    table = pd.read_csv(tmp_path / "exp" / "table.csv")
    assert len(table) == 9
    for _, g in table.groupby("seed"):
        assert g["lift"].nunique() == 3, g[["seed", "repeat", "lift"]]
    summary = pd.read_csv(tmp_path / "exp" / "summary.csv")
    row = summary[(summary["test"] == "lift") & (summary["reference_status"] == "all")].iloc[0]
    assert row["n"] == 3 and row["repeats"] == 3 and not row["deterministic"]


def test_repeat_zero_plays_the_stream_a_single_run_plays(tmp_path) -> None:
    suite = parse_suite({"seeds": [5], "repeats": 2, "baselines": [], "cases": [{**SMALL, "controller": "random"}]})
    table = run_experiment(suite, tmp_path / "exp").table.set_index("repeat")
    proc = cli(
        "run", "schelling", "--seed", "5", "--policy", "random", "--influence", "4",
        "--param", "size=10", "--param", "max_rounds=60", "--out", str(tmp_path / "one"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    import json

    single = json.loads((tmp_path / "one" / "result.json").read_text())["lift"]
    assert table.loc[0, "lift"] == single and table.loc[1, "lift"] != single


def test_a_deterministic_controller_over_placement_draws_is_deterministic_within_each_draw(tmp_path) -> None:
    case = {**SMALL, "controller": "stay", "placement_draws": 2}
    suite = parse_suite({"seeds": 4, "repeats": 2, "baselines": [], "cases": [case]})
    out = run_experiment(suite, tmp_path / "exp")
    table = out.table
    assert (table.groupby(["seed", "draw"])["lift"].nunique() == 1).all()
    assert (table.groupby("seed")["lift"].nunique() > 1).any()  # the draws differ: not one copy
    row = out.summary[(out.summary["test"] == "lift") & (out.summary["reference_status"] == "all")].iloc[0]
    assert bool(row["deterministic"]) and row["repeats"] == 2
