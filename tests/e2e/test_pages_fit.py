"""The report and the leaderboard as a reader sees them (1400 x 900): every chart label whole,
nothing wider than the window. Screenshots: test-output/e2e/report.png, leaderboard.png."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e
VIEW = {"width": 1400, "height": 900}
SHIPPED = ROOT / "data" / "benchmark" / "mam-bench-v1-quick-gemma3-270m"

#: labels outside their own chart (clipped by the svg's edge), as "label: box"
CLIPPED = """() => [...document.querySelectorAll('svg')].flatMap(svg => {
  const frame = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].filter(t => {
    const b = t.getBoundingClientRect();
    return b.left < frame.left - 0.5 || b.right > frame.right + 0.5 || b.top < frame.top - 0.5
      || b.bottom > frame.bottom + 0.5;
  }).map(t => t.textContent);
})"""
#: table cells whose text wraps onto a second line
WRAPPED = """() => [...document.querySelectorAll('td')].filter(td => {
  const line = parseFloat(getComputedStyle(td).fontSize) * 1.6;
  return td.getBoundingClientRect().height > line + 8;
}).map(td => td.textContent)"""


def _cli(*args: str, cwd: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mam_bench", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def _fits(browser, page_file: Path, shot: Path) -> object:
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    page.goto(page_file.as_uri())
    page.screenshot(path=str(shot))
    return ctx, page


def test_report_labels_are_whole_and_the_page_fits(browser, shots: Path, tmp_path: Path) -> None:
    long_case = "synchronization-heuristic-0481f9"  # the kind of name that was cut at the chart's edge
    suite = {
        "name": "fit",
        "seeds": 3,
        "cases": [
            {"name": "schelling-heuristic", "world": "schelling", "controller": "heuristic", "rounds": 4},
            {"name": long_case, "world": "synchronization", "controller": "heuristic", "rounds": 4},
        ],
    }
    (tmp_path / "fit.yaml").write_text(yaml.safe_dump(suite))
    _cli("experiment", "fit.yaml", "--out", "fit", "--jobs", "1", cwd=tmp_path)
    _cli("report", "fit", cwd=tmp_path)
    ctx, page = _fits(browser, tmp_path / "fit" / "report.html", shots / "report.png")
    try:
        labels = page.locator("svg.lift-panel text.case-label").all_text_contents()
        assert any(label.startswith(long_case) for label in labels), labels  # whole, not cut
        assert page.evaluate(CLIPPED) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEW["width"]
        for panel in page.locator("svg.lift-panel").all():  # compact: as tall as its cases
            assert panel.bounding_box()["height"] < 160
    finally:
        ctx.close()


def test_leaderboard_fits_1400_px(browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / "leaderboard.html"
    _cli("report", str(SHIPPED), "--leaderboard", "--html", "--out", str(out), cwd=tmp_path)
    ctx, page = _fits(browser, out, shots / "leaderboard.png")
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEW["width"]
        assert page.evaluate(WRAPPED) == []  # the score and its interval on one line
        head = page.locator("#leaderboard th").all_inner_texts()
        assert head[-1] == "invalid", head  # the last column whole
        assert all("\n" not in h for h in head if " " not in h), head  # no word broken in two
    finally:
        ctx.close()
