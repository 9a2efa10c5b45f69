"""Local processes and a local one-CPU Ray give the same table (wall times aside) for a small
suite; 2 worlds x 2 controllers x 4 seeds run locally, and the report of that suite opens in a
browser with its table and chart."""

from __future__ import annotations

import os
import re

import pandas as pd
from playwright.sync_api import sync_playwright

from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite
from mam_bench.experiment.table import TIMING_COLUMNS
from tests.experiment.conftest import cli, two_by_two


def expected_pairs(suite, seeds: int) -> int:
    """The cases on every seed, plus each world's baselines on the same seeds (`stay`, and `mimic`
    where the world has rule_action)."""
    baselines = {(c.world, b) for c in suite.cases for b in suite.baseline_controllers(c)}
    return seeds * (len(suite.cases) + len(baselines))


def test_local_and_ray_tables_match(tmp_path) -> None:
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # a case that fails in the worker (run_experiment is called past the command's own check)
    broken = parse_suite(
        {**two_by_two(2), "cases": [*two_by_two(2)["cases"], {"world": "schelling", "controller": "replay"}]}
    )
    local = run_experiment(broken, tmp_path / "local", executor="local", jobs=1)
    ray = run_experiment(broken, tmp_path / "ray", executor="ray", jobs=1)  # a one-CPU local cluster
    expected = local.total - 2  # all but the broken case's own two pairs
    assert local.total == ray.total and local.finished == ray.finished == expected
    assert sorted(local.failed) == sorted(ray.failed) and len(local.failed) == 2  # the same plain text
    assert ray.failed[0][1].startswith("ConfigError: ")
    a = pd.read_csv(tmp_path / "local" / "table.csv").drop(columns=list(TIMING_COLUMNS))
    b = pd.read_csv(tmp_path / "ray" / "table.csv").drop(columns=list(TIMING_COLUMNS))
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == expected and a["pair_id"].is_unique


def test_a_four_seed_table_and_its_report(tmp_path) -> None:
    suite = parse_suite(two_by_two(4))
    local = run_experiment(suite, tmp_path / "local", executor="local", jobs=2)
    expected = expected_pairs(suite, 4)
    assert local.finished == expected and not local.failed
    a = pd.read_csv(tmp_path / "local" / "table.csv").drop(columns=list(TIMING_COLUMNS))
    assert len(a) == expected and a["pair_id"].is_unique
    assert a["world"].nunique() == 2 or a["case"].nunique() == 4
    parquet = pd.read_parquet(tmp_path / "local" / "table.parquet")
    assert list(parquet["pair_id"]) == list(a["pair_id"])
    summary = pd.read_csv(tmp_path / "local" / "summary.csv")
    pooled = summary[summary["reference_status"] == "all"]
    assert len(pooled[pooled["test"] == "lift"]) == 4 and set(pooled["n"]) == {4}
    rule = pooled[(pooled["controller"] == "rule") & (pooled["test"] == "lift")]
    assert (rule["mean"] == 0).all()  # null steering is exact

    proc = cli("report", str(tmp_path / "local"))
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "local" / "report.html").read_text()
    assert not re.search(r'(src|href)\s*=\s*["\']?https?:', page)  # self-contained: nothing fetched
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
        tab = browser.new_page()
        tab.goto((tmp_path / "local" / "report.html").as_uri())
        assert tab.locator("table#summary tbody tr").count() == len(summary)
        # each case's own bar, and its stay and mimic (placebo) bars beside it
        assert tab.locator("#lift-chart svg rect.bar:not(.placebo)").count() == 4
        assert tab.locator("#lift-chart svg rect.bar.placebo").count() == 4 * 2
        lifts = pooled[pooled["test"] == "lift"]
        assert tab.locator("#lift-chart svg.lift-panel").count() == lifts.groupby(["world", "metric"]).ngroups
        assert tab.locator("#lift-chart svg.lift-panel").first.is_visible()
        assert tab.locator("svg.series polyline.treatment").count() >= 1
        browser.close()
