"""The play loop skips frames, never rounds, and always draws the last round."""

from __future__ import annotations

import threading
import time

from mam_bench.dashboards.playback import play


class CountingPair:
    """A stand-in pair of `rounds` rounds: stepping only counts (the loop is what is tested)."""

    def __init__(self, rounds: int) -> None:
        self.round, self.rounds = 0, rounds

    @property
    def finished(self) -> bool:
        return self.round >= self.rounds

    def step(self) -> bool:
        if self.finished:
            return False
        self.round += 1
        return True


def test_a_slow_renderer_costs_frames_not_rounds() -> None:
    pair, seen = CountingPair(40), []

    def slow_frame() -> None:
        seen.append(pair.round)
        time.sleep(0.05)  # a frame that takes longer than a round's share at 200 rounds/s

    played = play(pair, lambda: 200.0, threading.Lock(), slow_frame, threading.Event())
    assert played == 40 and pair.finished
    assert seen[-1] == 40  # the last round is drawn
    assert len(seen) < 40  # frames were skipped
    assert seen == sorted(set(seen))  # each frame shows a later round than the one before


def test_cancel_stops_the_loop() -> None:
    pair, cancel = CountingPair(10_000), threading.Event()
    cancel.set()
    assert play(pair, lambda: 1.0, threading.Lock(), lambda: None, cancel) == 0
    assert pair.round == 0
