"""`report --pilot-score`: direction x (100 dP + 100 d revolution) per case, and their plain sum."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from mam_bench.experiment.pilot_score import case_score
from mam_bench.models.civil_violence_cascade.model import CivilViolenceCascade
from mam_bench.models.voter.model import VoterWorld


def test_case_score_follows_the_pilots_formula():
    assert case_score(CivilViolenceCascade, "increase", 0.05, 1.0) == pytest.approx(105.0)
    assert case_score(CivilViolenceCascade, "decrease", 0.05, 1.0) == pytest.approx(-105.0)
    assert case_score(CivilViolenceCascade, "decrease", -0.2, 0.0) == pytest.approx(20.0)
    assert case_score(VoterWorld, "spread", 0.1, None) is None  # no points declared: no pilot score


SUITE = """name: tiny-pilot
seeds: [5]
baselines: []
cases:
  - {world: civil_violence_cascade, controller: heuristic, objective: increase, influence: 3,
     params: {size: 12, max_steps: 4, controlled_role: police, threshold: 1.0}}
  - {world: civil_violence_cascade, controller: heuristic, objective: decrease, influence: 3,
     params: {size: 12, max_steps: 4, controlled_role: police, threshold: 1.0}}
"""


def test_report_prints_each_case_and_the_sum(tmp_path: Path):
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE, encoding="utf-8")
    out = tmp_path / "runs"
    cmd = [sys.executable, "-m", "mam_bench"]
    subprocess.run([*cmd, "experiment", str(suite), "--out", str(out)], check=True, capture_output=True)
    text = subprocess.run(
        [*cmd, "report", str(out), "--pilot-score"], check=True, capture_output=True, text=True
    ).stdout
    rows = list(csv.DictReader((out / "table.csv").open(encoding="utf-8")))
    expected = [
        (1 if r["objective"] == "increase" else -1)
        * (100 * (float(r["treatment_final"]) - float(r["reference_final"])) + 100 * float(r["secondary_delta"]))
        for r in rows
    ]
    printed = [float(line.split()[-1]) for line in text.splitlines()[1:-1]]
    assert printed == pytest.approx(expected, abs=0.005)
    assert f"Combined Benchmark Score: {sum(expected):+.2f}" in text


#: a pinned case whose revolution differs between the runs (found by a search over seeds 0-4): the
#: reference of seed 2 stays short of 95 % active or jailed within 10 steps, and two citizens turning
#: active carry the treatment over it, so the score's revolution term is 100 points of it
REVOLUTION_SUITE = """name: pilot-revolution
seeds: [2]
baselines: []
cases:
  - {world: civil_violence_cascade, controller: heuristic, objective: increase, influence: 2,
     params: {size: 12, max_steps: 10, threshold: -3.0, police_density: 0.02, controlled_role: citizen}}
"""


def test_a_case_whose_revolution_differs_scores_its_revolution_term(tmp_path: Path):
    suite = tmp_path / "suite.yaml"
    suite.write_text(REVOLUTION_SUITE, encoding="utf-8")
    out = tmp_path / "runs"
    cmd = [sys.executable, "-m", "mam_bench"]
    subprocess.run([*cmd, "experiment", str(suite), "--out", str(out)], check=True, capture_output=True)
    text = subprocess.run(
        [*cmd, "report", str(out), "--pilot-score"], check=True, capture_output=True, text=True
    ).stdout
    (row,) = list(csv.DictReader((out / "table.csv").open(encoding="utf-8")))
    assert float(row["secondary_delta"]) == 1.0  # the treatment's revolution, the reference's none
    participation = float(row["treatment_final"]) - float(row["reference_final"])
    printed = float(text.splitlines()[1].split()[-1])
    assert printed == pytest.approx(100 * participation + 100, abs=0.005)
    assert printed > 100
