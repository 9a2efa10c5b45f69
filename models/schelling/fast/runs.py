"""One reference run of the compiled Schelling rule, called from Python: the per-cell setup, the
per-seed stream words, and `play` from the native module (`fast.native`) where it is built, else
numba's (`fast.kernel`). This module imports no numba, so a landscape that finds the native module
built never loads numba at all."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import ORDER, PLACEMENT, TIES, stream_words
from mam_bench.pcg_stream import entropy_words

EQUILIBRIUM, BLOCKED, HORIZON = 0, 1, 2
STATUS = {EQUILIBRIUM: "equilibrium", BLOCKED: "blocked", HORIZON: "horizon_exhausted"}


@lru_cache(maxsize=16)
def cached_neighbours(size: int) -> np.ndarray:
    """The eight Moore neighbours of every cell of the torus, in the rule's (dr, dc) order, built
    once per board size and process (read only).

    Looked up instead of recomputed: the modulo of a wrap costs more than the rest of a step.
    Built with numpy: loading a compiled version from numba's cache costs more than building it."""
    row, col = np.divmod(np.arange(size * size), size)
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr != 0 or dc != 0]
    return np.stack([(row + dr) % size * size + (col + dc) % size for dr, dc in steps], axis=1).astype(np.int32)


@lru_cache(maxsize=1)
def compiled_play() -> Any:
    """The native module's `play` (built once per kernel source), else numba's: the same code."""
    from mam_bench.models.schelling.fast import native

    play = native.play()
    if play is None:
        from mam_bench.models.schelling.fast.kernel import play
    return play


@lru_cache(maxsize=4096)
def _setup(size: int, vacancy: Fraction, threshold: Fraction, move_rule: str, streams: str) -> tuple:
    """What a run needs besides its seed, once per landscape cell: the population, the rule's
    flags and each stream's seeding words without the seed (`seeding.stream_words`)."""
    probe = SchellingParams.model_construct(size=size, vacancy=vacancy, threshold=threshold)
    words = tuple(entropy_words(stream_words(sid, probe, 0)[:-1]) for sid in (PLACEMENT, ORDER, TIES))
    return (probe.n_agents, probe.n_a, move_rule == "random_empty", streams == "isolated", *words)


def _entropy(prefix: list[int], seed: list[int]) -> np.ndarray:
    return np.array(prefix + seed, dtype=np.uint64)


def play_arguments(params: SchellingParams, seed: int, cap: int) -> tuple:
    """What `play` (numba's or the native module's) is handed for one run."""
    size, num, den = params.size, params.threshold.numerator, params.threshold.denominator
    n, n_a, random_empty, isolated, place, order, ties = _setup(
        size, params.vacancy, params.threshold, params.move_rule, params.streams
    )
    s = entropy_words([int(seed)])
    return (
        size,
        n,
        n_a,
        num,
        den,
        cap,
        random_empty,
        isolated,
        _entropy(place, s),
        _entropy(order, s),
        _entropy(ties, s),
        np.array(s, dtype=np.uint64),
        cached_neighbours(size),
    )


def _play(params: SchellingParams, seed: int, max_rounds: int | None) -> tuple:
    cap = params.max_rounds if max_rounds is None else max_rounds
    return compiled_play()(*play_arguments(params, seed, cap))


def fast_reference(
    params: SchellingParams, seed: int, max_rounds: int | None = None
) -> tuple[str, int, np.ndarray, np.ndarray]:
    """Status, transitions, final board and types of one reference run (same as the world)."""
    code, rounds, _, _, flat, types = _play(params, seed, max_rounds)
    return STATUS[code], rounds, flat.reshape(params.size, params.size), types


def fast_reference_outcome(params: SchellingParams, seed: int, max_rounds: int | None = None) -> dict:
    """The landscape row of one reference run: status, rounds, final satisfaction and OEH."""
    code, rounds, sat, oeh, _, _ = _play(params, seed, max_rounds)
    return {"status": STATUS[code], "rounds": rounds, "final_satisfaction": float(sat), "final_homophily": float(oeh)}
