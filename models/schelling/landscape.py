"""The reference landscape (docs/worlds/schelling.md, "Landscape"): reference runs only, on the bare rule kernel.

No Mesa agents are built here: the same `ordinary_phase` the world runs, on arrays, so a sweep
of thousands of runs stays cheap and gives the same numbers as the world itself. Mesa is not even
imported on the kernel's path (`SchellingLandscape`), which `mam-bench landscape` uses.
"""

from __future__ import annotations

import numpy as np

from mam_bench.errors import ConfigError
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import ORDER, TIES, initial_board, stream_words
from mam_bench.streams import seeded


def reference_outcome(params: SchellingParams, seed: int, max_rounds: int | None = None) -> dict:
    """Status, transitions, final satisfaction (all agents) and final OEH of one reference run.

    Runs the compiled kernel (models/schelling/fast/kernel.py), which tests hold to the very
    same draws and boards as `scan_reference_outcome` and the world.
    """
    from mam_bench.models.schelling.fast.runs import fast_reference_outcome

    if params.rule == "pilot_v2":
        raise ConfigError("rule", "the landscape kernel plays our rule only; pilot_v2 runs in `mam-bench run`")
    return fast_reference_outcome(params, seed, max_rounds)


class SchellingLandscape:
    """The world's landscape interface (its parameters, one reference run) without Mesa: the
    registration names it, so `mam-bench landscape` starts without importing the world."""

    Params = SchellingParams
    reference_outcome = staticmethod(reference_outcome)
    #: the landscape's line per cell: (header, outcome, statistic over the seeds)
    landscape_summary = (
        ("mean_sat", "final_satisfaction", "mean"),
        ("sd_sat", "final_satisfaction", "sd"),
        ("mean_oeh", "final_homophily", "mean"),
    )


def scan_reference_outcome(params: SchellingParams, seed: int, max_rounds: int | None = None) -> dict:
    """The same run on `ordinary_phase` (a numpy scan of every vacancy per agent): the yardstick."""
    from mam_bench.models.schelling.board import settle
    from mam_bench.models.schelling.draws import IsolatedDraws, PilotDraws
    from mam_bench.models.schelling.fast.array_rule import ordinary_phase
    from mam_bench.models.schelling.metrics import edge_homophily, satisfaction

    cap = params.max_rounds if max_rounds is None else max_rounds
    grid = initial_board(params, seed)
    n = params.n_agents
    types = np.array([0] * params.n_a + [1] * (n - params.n_a), dtype=np.int64)
    pos = np.empty(n, dtype=np.int64)
    flat = grid.ravel()
    pos[flat[flat >= 0]] = np.flatnonzero(flat >= 0)
    order_rng = seeded(stream_words(ORDER, params, seed))
    tie_rng = seeded(stream_words(TIES, params, seed))
    movable = np.ones(n, dtype=bool)
    num, den = params.threshold.numerator, params.threshold.denominator
    status, rounds = "horizon_exhausted", 0
    while rounds < cap:
        draws = PilotDraws(order_rng, tie_rng) if params.streams == "pilot" else IsolatedDraws(seed, rounds)
        plan = ordinary_phase(grid, types, pos, movable, num, den, set(), draws, params.move_rule)
        if plan.unhappy == 0:
            status = "equilibrium"
            break
        if not plan.moves:
            status = "blocked"
            break
        settle(grid, pos, plan.moves)
        rounds += 1
    everyone = np.ones(n, dtype=bool)
    try:
        oeh = edge_homophily(grid, types, everyone)
    except ValueError:
        oeh = float("nan")
    return {
        "status": status,
        "rounds": rounds,
        "final_satisfaction": satisfaction(grid, types, everyone, num, den),
        "final_homophily": oeh,
    }
