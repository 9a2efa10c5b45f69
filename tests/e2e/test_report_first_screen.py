"""The HTML report leads with the answer: at 1400 x 900 the first screen shows the results
table's mean, CI and p for the first case, without scrolling either way."""

from __future__ import annotations

from pathlib import Path

import pytest

from mam_bench.commands.report import build_report
from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite

pytestmark = pytest.mark.e2e


def test_first_screen_shows_the_first_cases_result(tmp_path: Path, browser, shots: Path) -> None:
    suite = {
        "name": "first-screen",
        "seeds": 3,
        "cases": [
            {"name": "heuristic", "world": "voter", "controller": "heuristic", "objective": "spread", "influence": 3},
            {"name": "random", "world": "voter", "controller": "random", "objective": "spread", "influence": 3},
        ],
    }
    out = tmp_path / "exp"
    run_experiment(parse_suite(suite), out, jobs=1)
    page_file = out / "report.html"
    page_file.write_text(build_report(out), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(page_file.as_uri())
        first = page.locator("#results tbody tr").first
        assert first.locator(".col-case").inner_text() == "heuristic"
        for col in ("mean", "ci", "wilcoxon_p", "holm_p"):
            box = first.locator(f".col-{col}").bounding_box()
            assert box is not None, col
            assert box["y"] + box["height"] <= 900 and box["x"] + box["width"] <= 1400, (col, box)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1400  # no sideways scrolling
        assert "Every row: " in page.locator("#shared").inner_text()
        assert not page.locator("#raw-summary").evaluate("d => d.open")  # the raw summary starts collapsed
        page.screenshot(path=str(shots / "report-first-screen-1400x900.png"))
    finally:
        page.close()
