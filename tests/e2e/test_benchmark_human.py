"""A person plays a benchmark in real Chromium (`mam-bench benchmark --policy human`): two of the
smoke tier's scenarios on two worlds at the smoke tier's settings, pair after pair with the
progress shown, one pair reloaded halfway and the command stopped and started again halfway
through another; the folder is then scored by `mam-bench report
HEURISTIC RANDOM HUMAN --leaderboard` beside the heuristic and random, from its own pairs' lifts."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from playwright.sync_api import Page, expect

from mam_bench.experiment.table import read_table
from tests.e2e.conftest import ROOT, free_port
from tests.e2e.pages import LOAD_TIMEOUT, STEP_TIMEOUT, body_has_no_traceback
from tests.support.stuck import communicate_or_stacks

pytestmark = pytest.mark.e2e
SMOKE = yaml.safe_load((ROOT / "suites" / "benchmark-v3.yaml").read_text())
PICKED = ("schelling-integrate", "voter-spread")


def definition(folder: Path) -> Path:
    """The smoke tier as shipped, on two of its scenarios; the ceiling is computed here (its own
    references are the heuristic's: the shipped oracle would take minutes)."""
    scenarios = [
        {**s, "reference": "heuristic", "reference_options": {}} for s in SMOKE["scenarios"] if s["name"] in PICKED
    ]
    data = {
        "name": "human-smoke-sample",
        "score": "v3",
        "ceiling": "ceiling",
        "ceiling_from": ["heuristic", "random"],
        "tiers": {"smoke": SMOKE["tiers"]["smoke"]},
        "scenarios": scenarios,
    }
    path = folder / "definition.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def _as_in_a_terminal() -> None:
    """Ctrl-C reaches a command run in a terminal's foreground. A shell script's background job
    (`bash scripts/test.sh &`) inherits SIGINT ignored, and Python keeps it ignored: the command
    would outlive the test's Ctrl-C for a reason that is the launcher's, not ours."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def mam(folder: Path, *args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mam_bench", *args],
        cwd=folder,
        env=dict(os.environ),
        text=True,
        preexec_fn=_as_in_a_terminal,
        **kw,
    )


def done(proc: subprocess.Popen, timeout: float = 300) -> str:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-2000:]
    return out


def serving(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, proc.stderr.read()[-2000:]
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"{url} did not answer")


def playing(page: Page, scenario: int, seed: int, r: int) -> None:
    where = f"scenario {scenario} of 2, seed {seed}"
    expect(page.locator(".mam-progress")).to_contain_text(where, timeout=LOAD_TIMEOUT)
    expect(page.locator(".mam-turn")).to_contain_text(f"round {r}: 0 / 2", timeout=LOAD_TIMEOUT)


def expected_score(folder: Path) -> float:
    """The v3 score recomputed from the folder's own table and the ceiling its manifest holds:
    per scenario (mean lift - best placebo's mean) / (ceiling's mean - best placebo's mean),
    averaged per world, then over worlds."""
    manifest = json.loads((folder / "benchmark.json").read_text())
    table = read_table(folder / "table.csv")
    seeds = [str(s) for s in manifest["seeds"]]
    worlds: dict[str, list[float]] = {}
    for s in manifest["scenarios"]:
        cells = manifest["ceiling"]["scenarios"][s["name"]]["seeds"]
        ceiling = np.mean([cells[k]["ceiling"] for k in seeds])
        means = {p: np.mean([cells[k]["placebos"][p] for k in seeds]) for p in ("rule", "stay", "mimic")}
        base = max(means.values())
        rows = table[table["case"] == f"{s['name']}/human"]
        assert sorted(rows["seed"].astype(str)) == seeds
        worlds.setdefault(s["world"], []).append((rows["lift"].mean() - base) / (ceiling - base))
    return float(np.mean([np.mean(v) for v in worlds.values()]))


def test_a_person_plays_the_smoke_tier_and_the_leaderboard_scores_it(browser, shots: Path, tmp_path: Path) -> None:
    path = definition(tmp_path)
    bench = ("--definition", str(path), "--tier", "smoke")
    done(mam(tmp_path, "ceiling", *bench, "--out", "ceiling/smoke", stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    others = [
        mam(tmp_path, "benchmark", "--policy", p, *bench, "--out", p, "--jobs", "1", stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        for p in ("heuristic", "random")
    ]  # fmt: skip
    port = free_port()
    seat = ("benchmark", "--policy", "human", *bench, "--out", "human", "--port", str(port))
    human = mam(tmp_path, *seat, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    try:
        serving(f"http://127.0.0.1:{port}/", human)
        page.goto(f"http://127.0.0.1:{port}/")
        # schelling, seed 1000: agent 0 moves to an empty cell, the other stays (S: all left stay)
        playing(page, 1, 1000, 0)
        expect(page.locator(".mam-title")).to_contain_text("controller human")
        page.screenshot(path=str(shots / "human-benchmark-first-pair.png"))
        page.locator(".mam-grid .mam-empty").first.click()
        expect(page.locator(".mam-turn")).to_contain_text("1 / 2", timeout=STEP_TIMEOUT)
        page.keyboard.press("S")
        expect(page.locator(".mam-turn")).to_contain_text("round 1: 0 / 2", timeout=STEP_TIMEOUT)
        page.reload()  # the seat and the round survive a reload: round 0 is not asked again
        playing(page, 1, 1000, 1)
        page.locator(".mam-progress").click()
        page.keyboard.press("L")  # all repeat last round's action: agent 0 its move, agent 1 its stay
        expect(page.locator(".mam-turn")).to_contain_text("round 2: 0 / 2", timeout=STEP_TIMEOUT)
        page.keyboard.press("S")
        # schelling, seed 1001: every round in one key; the command is stopped after round 0 and
        # started again: the finished pair is kept, this one goes on at round 1
        playing(page, 1, 1001, 0)
        page.locator(".mam-progress").click()
        page.keyboard.press("S")
        playing(page, 1, 1001, 1)
        human.send_signal(signal.SIGINT)
        _, err = communicate_or_stacks(human, 120)  # a hang says where it hangs
        assert human.returncode == 130 and "interrupted; finished records are kept" in err
        human = mam(tmp_path, *seat, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        serving(f"http://127.0.0.1:{port}/", human)
        page.goto(f"http://127.0.0.1:{port}/")
        for r in (1, 2):
            playing(page, 1, 1001, r)
            page.locator(".mam-progress").click()
            page.keyboard.press("S")
        # voter (a menu): agent 0 picks the menu's second action, then the rest stay; then repeats
        for seed in (1000, 1001):
            playing(page, 2, seed, 0)
            page.locator(".mam-progress").click()
            page.keyboard.press("2")
            expect(page.locator(".mam-turn")).to_contain_text("1 / 2", timeout=STEP_TIMEOUT)
            page.keyboard.press("S")
            for r in (1, 2):
                playing(page, 2, seed, r)
                page.locator(".mam-progress").click()
                page.keyboard.press("L")
        expect(page.locator(".mam-benchmark-done")).to_be_visible(timeout=LOAD_TIMEOUT)
        body_has_no_traceback(page)
        page.screenshot(path=str(shots / "human-benchmark-done.png"))
        printed = done(human)
    finally:
        page.context.close()
        if human.poll() is None:
            human.terminate()
            human.wait(timeout=30)
    assert "| human |" in printed and "3 pairs run, 1 already finished" in printed
    for proc in others:
        done(proc)
    folder = tmp_path / "human"
    logs = sorted((folder / "pairs").glob("*/human.jsonl"))  # the person's own record of each pair
    assert len(logs) == 4
    for log in logs:
        rows = [json.loads(line) for line in log.read_text().splitlines()]
        assert len(rows) == 3 * 2 and all(r["seconds"] is not None for r in rows)

    board = subprocess.run(
        [sys.executable, "-m", "mam_bench", "report", "heuristic", "random", "human", "--leaderboard"],
        cwd=tmp_path, check=True, capture_output=True, text=True, env=dict(os.environ),
    ).stdout  # fmt: skip
    (shots / "human-benchmark-leaderboard.md").write_text(board)
    lines = {m.group(1): m.group(0) for m in re.finditer(r"^\| (\w+) \| [^|]+ \| ([^|]+) \|.*$", board, re.M)}
    assert {"heuristic", "random", "human"} <= set(lines)
    score = float(lines["human"].split("|")[3])
    want = expected_score(folder)
    assert not math.isnan(want)
    assert abs(score - want) <= 0.005 + 1e-9, (score, want)
