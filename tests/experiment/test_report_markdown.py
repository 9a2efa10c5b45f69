"""`mam-bench report DIR --markdown` prints summary.csv's rows in the README's table form."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd

from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite


def test_markdown_rows_carry_the_summary_values(tmp_path) -> None:
    suite = {
        "name": "md",
        "seeds": 4,
        "cases": [
            {"name": "heur", "world": "schelling", "params": {"size": 10}, "controller": "heuristic", "influence": 4},
        ],
    }
    out = tmp_path / "exp"
    run_experiment(parse_suite(suite), out, jobs=1)
    summary = pd.read_csv(out / "summary.csv", keep_default_na=False)
    proc = subprocess.run(
        [sys.executable, "-m", "mam_bench", "report", str(out), "--markdown", "--no-split"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.startswith("|")]  # the table; verdicts below it
    assert lines[0].startswith("| case | test |") and set(lines[1]) <= {"|", "-"}
    verdict = proc.stdout.splitlines()[-1]
    assert verdict.startswith("- heur: lift ") and "lift beyond the best placebo" in verdict
    assert verdict.endswith((": steers", ": does not steer"))
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    pooled = summary[summary["reference_status"] == "all"]
    assert len(rows) == len(pooled) and len(rows) >= 3  # lift, vs stay, vs mimic at least
    for cells, (_, r) in zip(rows, pooled.iterrows()):
        assert cells[:4] == [r["case"], r["test"], "all", str(r["n"])]
        assert float(cells[4]) == round(float(r["mean"]), 4)
        assert float(cells[5]) == round(float(r["median"]), 4)
        assert cells[10].endswith(f"({r['zeros_dropped']})")
    assert {"vs stay", "vs mimic"} <= {c[1] for c in rows}
    split = subprocess.run(  # the per-status rows by default
        [sys.executable, "-m", "mam_bench", "report", str(out), "--markdown"], capture_output=True, text=True
    )
    assert len([line for line in split.stdout.splitlines() if line.startswith("|")]) - 2 == len(summary)


def test_a_folder_without_summary_is_a_clear_error(tmp_path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mam_bench", "report", str(tmp_path), "--markdown"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stderr.startswith("error: dir: "), proc.stderr
    assert list(tmp_path.iterdir()) == []
