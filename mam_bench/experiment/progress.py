"""A progress line: pairs done, ETA, calls and cost so far. A live bar on a terminal, plain
lines (at most every few seconds) when the output is a file or a pipe."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    s = int(max(seconds, 0))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Progress:
    def __init__(self, total: int, already: int, stream: TextIO | None = None, every: float = 5.0):
        self.total, self.already = total, already
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.perf_counter()
        self.every = every
        self._last = 0.0

    def line(self, done: int, calls: int, cost: float) -> str:
        fresh = done - self.already
        elapsed = time.perf_counter() - self.started
        left = self.total - done
        eta = _clock(elapsed / fresh * left) if fresh else "?"
        width = 24
        fill = int(width * done / max(self.total, 1))
        bar = "#" * fill + "." * (width - fill)
        return f"[{bar}] {done}/{self.total} pairs  ETA {eta}  calls {calls}  cost ${cost:.4f}"

    def update(self, done: int, calls: int, cost: float, force: bool = False) -> None:
        now = time.perf_counter()
        text = self.line(done, calls, cost)
        if self.tty:
            self.stream.write("\r" + text)
            self.stream.flush()
        elif force or done == self.total or now - self._last >= self.every:
            self.stream.write(text + "\n")
            self.stream.flush()
            self._last = now

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
