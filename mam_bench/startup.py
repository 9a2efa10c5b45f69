"""What the `mam-bench` command does with Python's cycle collector around its start-up.

A command imports numpy, pydantic, Mesa or numba before any work: over 100,000 objects that live
as long as the process. Left in the collector's generations, every full collection walks them
again: about 2 ms a round, amortised, in a 200-agent swarm world, and copy-on-write page faults
in forked workers. Once a command's imports are done it freezes them (they are never garbage)
and lets the collector work on the rest. Only the command does this (`cli.console` sets it):
a notebook or test calling `cli.main` keeps its collector as it was.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable

_COMMAND = False
_NOTHING_OPEN = False


def as_command() -> None:
    """This process is the `mam-bench` command (it exits when the command is done)."""
    global _COMMAND
    _COMMAND = True


def hold_collector() -> None:
    """Pause the collector while a command imports (it would only walk new, permanent objects)."""
    if _COMMAND:
        gc.disable()


def imports_done() -> None:
    """Freeze what start-up built and run the collector again (in the command only)."""
    if _COMMAND:
        gc.freeze()
        gc.enable()


def nothing_left_open() -> None:
    """The command is done and left no open file, thread, pool or server behind it."""
    global _NOTHING_OPEN
    _NOTHING_OPEN = True


def teardown_skippable() -> bool:
    """Whether the command may exit without Python's teardown: it said it left nothing open, and
    no other thread runs (atexit hooks such as a Ray shutdown would be skipped too)."""
    return _COMMAND and _NOTHING_OPEN and threading.active_count() == 1


#: what to do once numba is imported (`on_numba`)
_ON_NUMBA: list[Callable[[], None]] = []


def on_numba(fn: Callable[[], None]) -> None:
    """Run `fn` once numba is imported, now if it already is: announcing compiles must not import
    numba for a kernel that loads without it (a native module)."""
    if "numba" in sys.modules:
        fn()
    elif fn not in _ON_NUMBA:
        _ON_NUMBA.append(fn)


def numba_loaded() -> None:
    """Called by `numba_start`, which every kernel module imports before it defines a kernel."""
    while _ON_NUMBA:
        _ON_NUMBA.pop(0)()
