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

Where the cache lives: numba's own choice (NUMBA_CACHE_DIR if set, else `__pycache__` beside the
kernel's source, else the user's cache folder). An install where none of these can be written (a
read-only site-packages and no writable home, as in many containers) would make numba refuse to
define the kernels at all; there the cache goes to a private folder in the temp directory.
"""

from __future__ import annotations

import os
import stat
import tempfile
import types
from typing import Any

from numba.core import config
from numba.core.caching import Cache
from numba.core.dispatcher import Dispatcher
from numba.core.runtime import rtsys
from numba.misc.appdirs import AppDirs

from mam_bench import startup


def _writable(folder: str) -> bool:
    """numba's own test of a cache folder: it can be made, and a file written in it."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _private_temp_folder() -> str:
    """A temp folder only this user can write (cached code is loaded as code): a shared one left by
    someone else is not used; a fresh one then serves this process alone."""
    uid = getattr(os, "getuid", None)
    if uid is None:  # no owner to check (Windows): this process alone
        return tempfile.mkdtemp(prefix="mam-bench-numba-")
    path = os.path.join(tempfile.gettempdir(), f"mam-bench-numba-{uid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return tempfile.mkdtemp(prefix="mam-bench-numba-")
    info = os.lstat(path)
    if stat.S_ISDIR(info.st_mode) and info.st_uid == uid() and not info.st_mode & 0o022:
        return path
    return tempfile.mkdtemp(prefix="mam-bench-numba-")


def cache_where_writable(source: str) -> None:
    """Before a module defines its `cache=True` kernels (`source` is its __file__): make sure numba
    has a folder to cache them in, a private temp folder when the install and home are read-only."""
    if config.CACHE_DIR:
        return
    if _writable(os.path.join(os.path.dirname(source), "__pycache__")):
        return
    if _writable(AppDirs(appname="numba", appauthor=False).user_cache_dir):
        return
    config.CACHE_DIR = _private_temp_folder()


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


startup.numba_loaded()  # a command waiting to announce compiles listens from here on
