"""numba's start-up for the landscape kernel, without its BLAS probe.

numba's first compile or cache load imports `numba.np.arraymath`, and that module probes for BLAS
by importing scipy.linalg: a quarter of a second of a `mam-bench landscape` that lasts two. The
probe's answer only picks BLAS over a plain loop inside a jitted np.correlate/np.convolve, which
this kernel never calls, and numba's linear algebra asks for scipy again when it is typed. So the
kernel loads numba's registries once with scipy.linalg hidden, and shows it again at once.
"""

from __future__ import annotations

import sys

_BLAS = "scipy.linalg.cython_blas"


def load_registries() -> None:
    """numba's CPU target, ready to load cached kernels; a no-op when anything loaded it before."""
    hide = _BLAS not in sys.modules and "numba.np.arraymath" not in sys.modules
    if hide:
        sys.modules[_BLAS] = None  # type: ignore[assignment]  # importing a None entry raises ImportError
    try:
        from numba.core.registry import cpu_target

        cpu_target.target_context.refresh()
    finally:
        if hide and sys.modules.get(_BLAS, 0) is None:
            del sys.modules[_BLAS]
