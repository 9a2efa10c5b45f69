"""The progress line's ETA weighs the pairs still to play by what pairs like them took."""

from __future__ import annotations

import io

from mam_bench.experiment.progress import Progress

ORACLE, PLACEBO = ("case-oracle", "oracle"), ("case-stay", "stay")


class Clock:
    """A clock the test sets (the ETA reads elapsed time; nothing here waits)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def progress(clock: Clock, total: int, already: int = 0, **kw) -> Progress:
    return Progress(total, already, io.StringIO(), clock=clock, **kw)


def test_the_eta_weighs_the_pairs_left_by_their_kind() -> None:
    # 2 oracle pairs and 10 placebo pairs (a resumed one took 1 s); one oracle pair played in 100 s
    clock = Clock()
    p = progress(clock, 13, 1, left=[ORACLE] * 2 + [PLACEBO] * 10, seen=[(PLACEBO, 1.0)])
    assert p.eta(1) == "?"  # nothing played in this run yet
    clock.now = 100.0
    p.finished(ORACLE, 100.0)
    # left: one oracle pair (100 s) and ten placebo pairs (1 s each): 110 s
    assert p.eta(2) == "0:01:50"
    # counted alike, the same run reads 11 pairs x 100 s
    alike = progress(clock, 13, 1)
    clock.now = 200.0
    assert alike.eta(2) == "0:18:20"


def test_the_wall_clock_rate_carries_the_parallelism() -> None:
    clock = Clock()
    p = progress(clock, 4, left=[ORACLE] * 4)
    clock.now = 50.0  # two pairs of 100 s each played side by side in 50 s... of two jobs
    p.finished(ORACLE, 100.0)
    p.finished(ORACLE, 100.0)
    assert p.eta(2) == "0:00:50"  # the two left: 200 s of play at 0.25 wall seconds per second


def test_an_unseen_case_is_estimated_by_its_controller_then_by_all() -> None:
    clock = Clock()
    p = progress(clock, 3, left=[("a", "oracle"), ("b", "oracle"), ("c", "greedy")])
    p.finished(("a", "oracle"), 30.0)
    assert p.estimate(("b", "oracle")) == 30.0  # same controller
    assert p.estimate(("c", "greedy")) == 30.0  # all pairs
    p.dropped(("b", "oracle"))  # failed: not played in this run
    clock.now = 30.0
    assert p.eta(1) == "0:00:30"  # only greedy's pair is left


def test_without_kinds_the_eta_counts_pairs() -> None:
    clock = Clock()
    p = progress(clock, 10, 2)
    clock.now = 40.0
    assert p.eta(4) == "0:02:00"  # 2 fresh pairs in 40 s, 6 left


def test_a_controller_not_yet_seen_is_a_typical_pair_not_the_mean_one() -> None:
    p = progress(Clock(), 4, seen=[(("a", "oracle"), 100.0), (("b", "random"), 1.0), (("c", "heuristic"), 2.0)])
    assert p.estimate(("d", "stay")) == 2.0  # the median case (the mean would be 34.3)
