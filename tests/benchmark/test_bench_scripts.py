"""The benchmark's own scripts in bench/ (cost, coverage) run as a user runs them: measured output
from a folder or ceiling file, and a one-line refusal (exit 2) for input they cannot read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmark.test_ceiling_scores import ceiling_file, steered

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


def test_ceiling_cost_reports_a_folders_own_seconds(tmp_path: Path) -> None:
    rows = ["case,controller,wall_seconds"]
    rows += [f"pursuit-help/reference,oracle,{s}" for s in (100, 120)]  # mean 110 a pair
    rows += [f"pursuit-help/greedy,greedy,{s}" for s in (3, 5)]  # mean 4 a pair
    rows += ["pursuit-help/stay,stay,1"]
    (tmp_path / "table.csv").write_text("\n".join(rows) + "\n")
    done = bench("bench.ceiling_cost", "--from", str(tmp_path), "--from-tier", "standard", "--tier", "standard")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("pursuit-help"))
    # oracle 110 s, others 4 + 1 s a seed; 30 seeds on 2 jobs: (110 + 5) * 30 / 2 / 3600 h
    assert line.split()[1:] == ["110.0", "1", "110", "5", f"{115 * 30 / 2 / 3600:.1f}"]
    assert "measured in" in done.stdout and "extrapolation" not in done.stdout


def test_ceiling_cost_refuses_a_folder_without_seconds(tmp_path: Path) -> None:
    (tmp_path / "ceiling.json").write_text(json.dumps(ceiling_file({"s": steered()})))
    done = bench("bench.ceiling_cost", "--from", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("error: --from: no table.csv in") and done.stdout == ""


def test_coverage_resamples_a_ceiling_files_seeds(tmp_path: Path) -> None:
    seeds = list(range(500, 510))
    path = tmp_path / "c.json"
    path.write_text(json.dumps(ceiling_file({"s": steered(seeds=seeds), "t": steered("v", seeds)}, seeds)))
    done = bench("bench.score_coverage", "--ceiling", str(path), "--seeds", "5", "--trials", "50")
    assert done.returncode == 0, done.stderr
    assert "population: 10 seeds of b tier t; 50 trials per cell" in done.stdout
    assert {x.split()[0] for x in done.stdout.splitlines()[2:] if x.strip()} == {"heuristic", "greedy", "random"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--ceiling", "missing.json", "--seeds", "10"), "error: ceiling: no such file: missing.json"),
        (("--seeds", "10,x"), "error: argument --seeds: not a comma-separated list of whole numbers"),
        (("--seeds", "1,10"), "error: argument --seeds: every seed count must be at least 2"),
    ],
)
def test_coverage_refuses_what_it_cannot_read(args: tuple[str, ...], message: str) -> None:
    done = bench("bench.score_coverage", *args)
    assert done.returncode == 2
    assert message in done.stderr and done.stdout == ""
