"""The play loop's pacing, apart from Solara, so the page and `bench/playback.py` run the same loop.

The pace is rounds per second of wall time. When drawing a frame takes longer than a round's
share, the next frame plays every round that fell due: frames are skipped, rounds never are. And
drawing may take at most a third of the time (a frame waits twice as long as the last one took),
so a slow renderer (a loaded machine, a big board) costs frames, not rounds: the pair ends in
about its stepping time x 1.5, and the last round is always drawn.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

#: the shortest pause between frames, so the page can draw the last one
MIN_FRAME = 0.05
#: after a frame that took t seconds, the next one is drawn no sooner than FRAME_GAP * t later
FRAME_GAP = 2.0


def play(
    session: Any,
    speed: Callable[[], float],
    lock: threading.Lock,
    on_frame: Callable[[], None],
    cancel: threading.Event,
    keep_playing: Callable[[], bool] = lambda: True,
) -> int:
    """Step `session` at `speed()` rounds/s until it finishes, `keep_playing()` turns false or
    `cancel` is set; `on_frame()` after each batch of rounds. Returns the rounds played."""
    start, played = time.monotonic(), 0
    pending, next_frame = False, start
    while keep_playing() and not cancel.is_set():
        due = int((time.monotonic() - start) * max(speed(), 0.1)) + 1 - played
        advanced = True
        with lock:
            for _ in range(max(due, 0)):
                advanced = session.step()
                if not advanced:
                    break
                played += 1
                pending = True
        done = not advanced or session.finished
        if pending and (done or time.monotonic() >= next_frame):
            drawn = time.monotonic()
            on_frame()
            pending, next_frame = False, time.monotonic() + FRAME_GAP * (time.monotonic() - drawn)
        if done:
            return played
        wait = start + (played + 1) / max(speed(), 0.1) - time.monotonic()
        if cancel.wait(max(MIN_FRAME, wait)):
            return played
    return played
