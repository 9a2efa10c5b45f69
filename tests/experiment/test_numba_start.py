"""The landscape kernel loads its cached machine code without numba's target refresh.

The refresh imports every typing and lowering module numba has (scipy.linalg among them, for
its BLAS probe); loading compiled code needs only the memory runtime. A fresh process that has
loaded the kernel from its cache must give the numpy scan's numbers without importing those
modules, and numba must still compile anything new afterwards (linear algebra included).
"""

from __future__ import annotations

import json
import subprocess
import sys

WARM = """
from mam_bench.models.schelling.fast import kernel, runs
runs.compiled_play = lambda: kernel.play
from mam_bench.models.schelling.fast.runs import fast_reference_outcome
from mam_bench.models.schelling.params import SchellingParams
for streams in ("pilot", "isolated"):
    fast_reference_outcome(SchellingParams(streams=streams), 0, 5)
"""

PROBE = """
import json, sys
from fractions import Fraction
from mam_bench.models.schelling.fast import kernel, runs
runs.compiled_play = lambda: kernel.play  # numba's play, from its cache (not the native module)
from mam_bench.models.schelling.fast.runs import fast_reference_outcome
from mam_bench.models.schelling.params import SchellingParams
cells = [(s, t, v, seed) for s in ("pilot", "isolated") for t in ("1/2", "3/4", "6/7")
         for v in ("1/10", "1/4") for seed in (0, 1)]
kernel = [fast_reference_outcome(SchellingParams(streams=s, threshold=Fraction(t), vacancy=Fraction(v)), seed, 60)
          for s, t, v, seed in cells]
loaded = sorted(m for m in ("numba.np.arraymath", "numba.np.linalg", "numba.typed.typeddict", "scipy.linalg")
                if m in sys.modules)
from mam_bench.models.schelling.landscape import scan_reference_outcome
scan = [scan_reference_outcome(SchellingParams(streams=s, threshold=Fraction(t), vacancy=Fraction(v)), seed, 60)
        for s, t, v, seed in cells]
import numpy as np
from numba import njit

@njit(cache=False)
def solve(a, b):
    return np.linalg.solve(a, b)

print(json.dumps({"loaded": loaded, "same": kernel == scan, "runs": len(kernel),
                  "solve": solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([2.0, 2.0])).tolist()}))
"""


def test_kernel_loads_from_its_cache_without_the_target_refresh():
    warm = subprocess.run([sys.executable, "-c", WARM], capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr  # compiles (with the full refresh) when no cache exists
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["loaded"] == []  # none of numba's typing/lowering modules, no scipy.linalg
    assert got["same"] and got["runs"] == 24  # the loaded code gives the numpy scan's numbers
    assert got["solve"] == [1.0, 0.5]  # compiling afterwards refreshes the target as always
