"""numba's start-up for our compiled kernels: load their cached machine code, and nothing more.

Before numba loads a cached function it refreshes its whole CPU target: it imports and registers
every typing and lowering module it has (numba.np, numba.cpython, numba.typed, ...; the BLAS
probe among them imports scipy.linalg). That is a third of a second of a `mam-bench landscape`
that lasts two, and loading machine code needs none of it: typing and lowering are for
compiling. What running the code needs is numba's memory runtime (NRT), which the refresh would
also start. So our kernels' functions (a world's landscape kernel, an assignment solver)
load their cache with the runtime started and the refresh skipped. A cache miss (a fresh install,
an edited kernel) compiles as always: numba's compiler refreshes the target itself, so compiling
anything, then or later, is unchanged.
"""

from __future__ import annotations

import types
from typing import Any

from numba.core.caching import Cache
from numba.core.dispatcher import Dispatcher
from numba.core.runtime import rtsys


def _load_cached(self: Cache, sig: Any, target_context: Any) -> Any:
    """`Cache.load_overload` without the target refresh: start the runtime, read the cache."""
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


def light_cache_loads(namespace: dict[str, Any]) -> None:
    """Give every cached numba function defined in `namespace` (a module's globals) the light load."""
    for value in namespace.values():
        if isinstance(value, Dispatcher) and isinstance(value._cache, Cache):
            value._cache.load_overload = types.MethodType(_load_cached, value._cache)
