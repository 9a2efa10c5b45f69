"""The report draws one lift panel per world and metric, and only the current suite's rows."""

from __future__ import annotations

import re

import pandas as pd

from mam_bench.commands.report import build_report
from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite


def _suite(name: str, seeds: int) -> dict:
    # no baselines: the row counts below are the suite's own cases (the stats branch added stay/mimic by default)
    return {
        "name": name,
        "seeds": seeds,
        "baselines": [],
        "cases": [
            {
                "name": "schelling-random",
                "world": "schelling",
                "params": {"size": 10, "max_rounds": 10},
                "controller": "random",
                "influence": 4,
                "rounds": 3,
            },
            {"name": "foraging-random", "world": "foraging", "controller": "random", "rounds": 3},
        ],
    }


def test_one_panel_per_world_and_metric_and_only_the_current_suite(tmp_path) -> None:
    out = tmp_path / "exp"
    run_experiment(parse_suite(_suite("first", 3)), out, jobs=1)
    assert len(pd.read_csv(out / "table.csv")) == 6
    # a second, smaller suite into the same folder: the earlier suite's extra rows stay in table.csv
    run_experiment(parse_suite(_suite("second", 2)), out, jobs=1)
    assert len(pd.read_csv(out / "table.csv")) == 6
    page = build_report(out)
    panels = re.findall(r'<svg id="lift-([^"]+)" class="chart lift-panel"', page)
    assert sorted(panels) == ["foraging-score", "schelling-oeh"]  # foraging's default hinder counts everyone
    assert page.count('class="bar"') == 2  # one case per panel
    assert (
        "<p>4 pairs (" in page
    )  # the line goes on "(N invalid, left out)"; 2 cases x 2 seeds of this suite, not the 6 rows of the first
