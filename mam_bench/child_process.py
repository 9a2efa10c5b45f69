"""Children that die with their parent: the kernel sends SIGKILL to a child when the process that
started it ends (Linux `PR_SET_PDEATHSIG`), so even a `kill -9` of mam-bench leaves none serving."""

from __future__ import annotations

import os
import signal


def die_with_parent(parent: int | None = None) -> None:
    """Run in the child (a `preexec_fn` or a pool initializer): ask the kernel for SIGKILL when the
    parent dies, and exit at once if `parent` is already gone (it may die before the request)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)
