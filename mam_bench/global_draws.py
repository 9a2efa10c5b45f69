"""Who drew from Python's global `random` or numpy's global `np.random` while a round ran.

The adapter compares the two global states around a user's `model.step()`. That comparison is
process-wide: in a dashboard the server's own thread draws from `random` too (websockets' keepalive
ping, `random.getrandbits`), and a round running meanwhile in a worker thread was blamed for it.
So the module-level functions are wrapped once: each call is counted, and marked on the calling
thread if a round is being watched there. A changed state is the model's when its own thread drew,
or when no other thread drew through these functions meanwhile (a draw through a path the wrappers
cannot see, such as `random._inst`, is still caught in a single-threaded run).
"""

from __future__ import annotations

import functools
import itertools
import random as pyrandom
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

_local = threading.local()
_draws = itertools.count(1)  # every wrapped call takes a number; next() is atomic under the GIL
_last = 0
_installed = False
_install_lock = threading.Lock()
_READS = {"getstate", "get_state"}  # our own comparison reads these; reading changes nothing


def _wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        global _last
        _last = next(_draws)
        if getattr(_local, "watching", False):
            _local.drew = True
        return fn(*args, **kwargs)

    return counted


def _install() -> None:
    global _installed
    with _install_lock:
        if _installed:
            return
        for module, instance in ((pyrandom, pyrandom._inst), (np.random, np.random.mtrand._rand)):  # type: ignore[attr-defined]
            for name in dir(module):
                fn = getattr(module, name)
                if name.startswith("_") or name in _READS or getattr(fn, "__self__", None) is not instance:
                    continue
                setattr(module, name, _wrap(fn))
        _installed = True


def _states() -> tuple[Any, bytes]:
    return pyrandom.getstate(), np.random.get_state()[1].tobytes()


@contextmanager
def watch() -> Iterator[Callable[[], bool]]:
    """Yields `drew()`: whether the code run inside drew from a global generator (on this thread)."""
    _install()
    before, first = _states(), _last
    _local.watching, _local.drew = True, False
    verdict: dict[str, bool] = {}
    try:
        yield lambda: verdict["drew"]
    finally:
        _local.watching = False
        changed = _states() != before
        others = _last != first and not _local.drew
        verdict["drew"] = changed and (_local.drew or not others)
