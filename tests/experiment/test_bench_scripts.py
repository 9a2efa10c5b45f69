"""The benchmark scripts run: their numbers are quoted in the docs, so a crash there is a stale figure."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_landscape_bench_ratio_step_runs_and_its_sides_agree() -> None:
    """The Mesa-ratio step mixes pilot jobs (which name their streams) with board jobs (which do not)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "landscape.py"), "--grid", "none", "--sample", "4"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("(same results)") == 2, done.stdout
    assert len(re.findall(r"kernel [0-9.]+ s -> [0-9]+x", done.stdout)) == 2, done.stdout  # the ratio is printed
