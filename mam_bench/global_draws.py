"""Whether a user's model drew from Python's global `random` or numpy's global `np.random`.

The two global states are compared around a round, and only where that round runs alone in its
process: the runner's pairs (`run`, experiment and benchmark workers) and `check_world` turn the
check on (`checked()`). Anywhere else, a dashboard server say, other threads draw from `random`
too (websockets' keepalive ping), so a changed state would prove nothing: there the check is off
and `is_checked()` says so. Nothing of `random` or `numpy.random` is wrapped or replaced.
"""

from __future__ import annotations

import random as pyrandom
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np

_checking: ContextVar[bool] = ContextVar("mam_bench_global_draws_checked", default=False)


@contextmanager
def checked() -> Iterator[None]:
    """Rounds played inside (in this context: this thread, this task) run alone: check them."""
    token = _checking.set(True)
    try:
        yield
    finally:
        _checking.reset(token)


def is_checked() -> bool:
    return _checking.get()


def _states() -> tuple[Any, bytes]:
    return pyrandom.getstate(), np.random.get_state()[1].tobytes()


@contextmanager
def watch() -> Iterator[Callable[[], bool]]:
    """Yields `drew()`: whether the code run inside changed a global generator's state (always
    False where the check is off)."""
    if not _checking.get():
        yield lambda: False
        return
    before = _states()
    verdict: dict[str, bool] = {}
    try:
        yield lambda: verdict["drew"]
    finally:
        verdict["drew"] = _states() != before
