"""The compiled landscape kernel gives exactly the world's results: same draws, same boards."""

from __future__ import annotations

import numpy as np

from mam_bench.models.schelling.fast.runs import fast_reference, fast_reference_outcome
from mam_bench.models.schelling.landscape import reference_outcome, scan_reference_outcome
from mam_bench.models.schelling.params import LANDSCAPE_THRESHOLDS, SchellingParams
from mam_bench.runner import PairSpec, prepare, run_reference

VACANCIES = ("1/100", "1/20", "1/10", "1/4", "1/3", "2/5", "1/2", "3/5")


def _random_params(rng: np.random.Generator, max_size: int) -> SchellingParams | None:
    try:
        return SchellingParams.from_strings(
            {
                "size": str(int(rng.integers(3, max_size + 1))),
                "threshold": str(LANDSCAPE_THRESHOLDS[int(rng.integers(len(LANDSCAPE_THRESHOLDS)))]),
                "vacancy": str(rng.choice(VACANCIES)),
                "move_rule": str(rng.choice(["nearest_satisfactory", "nearest_satisfactory", "random_empty"])),
                "streams": str(rng.choice(["pilot", "isolated"])),
            }
        )
    except Exception:
        return None  # e.g. a vacancy that leaves no empty cell on a tiny board


def test_kernel_matches_the_numpy_scan_over_many_settings() -> None:
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 250:
        p = _random_params(rng, 40 if checked % 5 == 0 else 14)
        if p is None:
            continue
        seed, cap = int(rng.integers(0, 1000)), int(rng.integers(1, 80))
        assert fast_reference_outcome(p, seed, cap) == scan_reference_outcome(p, seed, cap), (p, seed, cap)
        checked += 1


def test_kernel_matches_the_world_board_for_board() -> None:
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 25:
        p = _random_params(rng, 16)
        if p is None:
            continue
        seed = int(rng.integers(0, 100))
        prep = prepare(PairSpec.build(world="schelling", seed=seed, params=p.model_dump(mode="json"), influence=0))
        world, rows = run_reference(prep)
        status, rounds, board, _ = fast_reference(p, seed)
        assert (status, rounds) == (world.run.status, world.round)
        np.testing.assert_array_equal(board, world.board)
        checked += 1


def test_pilot_numbers() -> None:
    p = SchellingParams(streams="pilot")
    out = reference_outcome(p, 22)
    assert (out["status"], out["rounds"], out["final_satisfaction"]) == ("equilibrium", 14, 1.0)
    sats = [reference_outcome(p, s)["final_satisfaction"] for s in range(20)]
    assert round(float(np.mean(sats)), 3) == 0.717 and round(float(np.std(sats, ddof=1)), 3) == 0.298
