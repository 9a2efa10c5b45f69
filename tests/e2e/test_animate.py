"""Acceptance 4: `mam-bench animate` writes treatment rounds + 1 frames; frame 0's panels match."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mam_bench.dashboards.animation import panel_boxes
from mam_bench.records import read_jsonl
from mam_bench.runner import PairSpec, run_pair

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def test_animate_schelling_gif(tmp_path: Path, shots: Path) -> None:
    run_dir = tmp_path / "run"
    spec = PairSpec.build(
        world="schelling",
        seed=22,
        controller="random",
        rounds=8,
        params={"size": "12", "max_rounds": "40"},
        influence=4,
    )
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright may hold this thread's loop
        pool.submit(run_pair, spec, run_dir).result()
    out = shots / "fork.gif"
    out.unlink(missing_ok=True)  # a GIF from an older version has no mark, and animate would keep it
    done = subprocess.run(
        [sys.executable, "-m", "mam_bench", "animate", str(run_dir), "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    treatment_rounds = len(read_jsonl(run_dir / "treatment.jsonl")) - 1
    assert treatment_rounds == 8
    gif = Image.open(out)
    assert gif.n_frames == treatment_rounds + 1
    gif.seek(0)
    first = np.asarray(gif.convert("RGB"))
    left, right = panel_boxes()
    a = first[left[1] : left[3], left[0] : left[2]]
    b = first[right[1] : right[3], right[0] : right[2]]
    assert a.shape == b.shape and np.array_equal(a, b)
    gif.seek(treatment_rounds)
    last = np.asarray(gif.convert("RGB"))
    assert not np.array_equal(last[right[1] : right[3], right[0] : right[2]], b)
