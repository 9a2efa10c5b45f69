"""A progress line: pairs done, ETA, calls and cost so far. A live bar on a terminal, plain
lines (at most every few seconds) when the output is a file or a pipe.

The ETA weighs each pair still to play by what pairs like it took: the mean seconds of the same
case, else of the same controller, else the median case's (a controller not yet seen, such as the
placebos a suite plays last, is more likely a typical pair than the mean one); resumed pairs count. A suite
whose pairs differ a hundredfold in cost (a ceiling's oracle pairs beside its placebos) then reads a
time that holds, where a count of pairs would not. The seconds are scaled to the wall clock by this
run's own rate (elapsed time per second of pair played), which carries the parallelism and the load.
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import TextIO

#: a pair's kind: (case key, controller)
Kind = tuple[str, str]


def _clock(seconds: float) -> str:
    s = int(max(seconds, 0))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


class Progress:
    def __init__(
        self,
        total: int,
        already: int,
        stream: TextIO | None = None,
        every: float = 5.0,
        left: Iterable[Kind] = (),
        seen: Iterable[tuple[Kind, float]] = (),
        clock: Callable[[], float] = time.perf_counter,
    ):
        """`left`: the kind of every pair still to play; `seen`: (kind, seconds) of pairs already
        finished. Without them the ETA counts pairs alike."""
        self.total, self.already = total, already
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.clock = clock
        self.started = clock()
        self.every = every
        self._last = 0.0
        self.left = Counter(left)
        self.by_case: dict[str, list[float]] = defaultdict(list)
        self.by_controller: dict[str, list[float]] = defaultdict(list)
        for kind, seconds in seen:
            self._note(kind, seconds)
        self.fresh_seconds = 0.0  # seconds of the pairs this run played

    def _note(self, kind: Kind, seconds: float) -> None:
        self.by_case[kind[0]].append(seconds)
        self.by_controller[kind[1]].append(seconds)

    def finished(self, kind: Kind, seconds: float) -> None:
        """A pair of this kind finished in this run after `seconds` of play."""
        self.left[kind] -= 1
        self._note(kind, seconds)
        self.fresh_seconds += seconds

    def dropped(self, kind: Kind) -> None:
        """A pair of this kind will not be played in this run (it failed)."""
        self.left[kind] -= 1

    def estimate(self, kind: Kind) -> float:
        """Seconds a pair of this kind is expected to take (0 before any pair has finished)."""
        for known in (self.by_case.get(kind[0]), self.by_controller.get(kind[1])):
            if known:
                return _mean(known)
        means = sorted(_mean(v) for v in self.by_case.values() if v)
        return means[len(means) // 2] if means else 0.0

    def eta(self, done: int) -> str:
        fresh = done - self.already
        elapsed = self.clock() - self.started
        if not fresh:
            return "?"
        if self.fresh_seconds <= 0 or not +self.left:  # no kinds given, or nothing timed: count pairs
            return _clock(elapsed / fresh * (self.total - done))
        work = sum(n * self.estimate(kind) for kind, n in self.left.items() if n > 0)
        return _clock(elapsed / self.fresh_seconds * work)

    def line(self, done: int, calls: int, cost: float) -> str:
        width = 24
        fill = int(width * done / max(self.total, 1))
        bar = "#" * fill + "." * (width - fill)
        return f"[{bar}] {done}/{self.total} pairs  ETA {self.eta(done)}  calls {calls}  cost ${cost:.4f}"

    def update(self, done: int, calls: int, cost: float, force: bool = False) -> None:
        now = self.clock()
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
