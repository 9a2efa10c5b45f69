"""The native module's `play` (numba's ahead-of-time build of the kernel) is numba's `play`: the
same results run for run, both stream designs, both move rules; and a build that fails leaves a
note beside it and numba's `play` serving, never an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np

from mam_bench.models.schelling.fast import kernel, native, runs
from mam_bench.models.schelling.params import LANDSCAPE_THRESHOLDS, LANDSCAPE_VACANCIES, SchellingParams


def test_native_play_gives_numbas_results() -> None:
    fast = native.play()
    assert fast is not None  # this machine builds it (a C compiler and numba.pycc are here)
    cases = [
        (SchellingParams(threshold=t, vacancy=v, streams=s), seed, 500)
        for s in ("pilot", "isolated")
        for t in LANDSCAPE_THRESHOLDS
        for v in LANDSCAPE_VACANCIES[::3]
        for seed in (0, 7)
    ]
    cases += [
        (SchellingParams(size=60, threshold=Fraction(t), vacancy=Fraction(1, 10), move_rule=m), seed, 30)
        for t in ("1/2", "3/4")
        for m in ("nearest_satisfactory", "random_empty")
        for seed in (1, 2)
    ]
    for p, seed, cap in cases:
        args = runs.play_arguments(p, seed, cap)
        got, want = fast(*args), kernel.play(*args)
        assert got[:2] == want[:2], (p, seed)
        assert np.array_equal(np.array(got[2:4]), np.array(want[2:4]), equal_nan=True), (p, seed)
        assert np.array_equal(got[4], want[4]) and np.array_equal(got[5], want[5]), (p, seed)


FAILING_BUILD = """
import json, os, sys
sys.modules["numba.pycc"] = None  # as on a numba without the ahead-of-time compiler
from mam_bench.models.schelling.fast import native, runs
from mam_bench.models.schelling.params import SchellingParams
built = native.build()
note = os.path.join(os.environ["NUMBA_CACHE_DIR"], native.file_name() + ".failed")
row = runs.fast_reference_outcome(SchellingParams(threshold=3/4, streams="pilot"), 3, 40)
print(json.dumps({"built": built is not None, "noted": os.path.isfile(note), "again": native.play() is not None,
                  "served_by": runs.compiled_play().__module__, "row": row}))
"""


def test_a_failed_build_is_noted_and_numba_serves(tmp_path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", FAILING_BUILD], capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-800:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert (got["built"], got["noted"], got["again"]) == (False, True, False)  # noted once, not retried
    assert got["served_by"] == kernel.__name__
    assert got["row"] == runs.fast_reference_outcome(SchellingParams(threshold=Fraction(3, 4), streams="pilot"), 3, 40)
