"""The integration heuristic is a real strategy: it beats random steering on held-out seeds."""

from __future__ import annotations

import statistics

import pytest

from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round


def _lifts(policy: str, objective: str, seeds: range) -> list[float]:
    return [
        run_pair(PairSpec.build(world="schelling", seed=s, controller=policy, objective=objective))["lift"]
        for s in seeds
    ]


def test_integrate_heuristic_beats_random():
    seeds = range(20, 26)
    heuristic = _lifts("heuristic", "integrate", seeds)
    random = _lifts("random", "integrate", seeds)
    assert statistics.fmean(heuristic) > statistics.fmean(random)
    assert statistics.fmean(heuristic) > 0


@pytest.mark.parametrize("priority", ["turn", "first"])
def test_heuristic_never_collides_with_itself(priority):
    """Distinct targets: no collision among its own agents. Under `first` nothing is reserved before
    its claims, so none fails; under `turn` a claim can lose its cell to an earlier ordinary agent."""
    result = run_pair(PairSpec.build(world="schelling", seed=22, controller="heuristic", params={"priority": priority}))
    outcomes = result["treatment"]["audit"]["outcomes"]
    assert outcomes.get("collision", 0) == 0
    if priority == "first":
        assert outcomes.get("occupied", 0) == 0


@pytest.mark.parametrize("size", [12, 40])
def test_the_board_once_scores_as_each_cell_alone(size):
    """What the heuristic counts once per board (`_Board.gain`, every cell at once) is, cell by cell
    and group by group, the take value plus `_supply_change` of that one cell, on whole boards and
    on windows of larger ones (size 40: a 31 x 31 view)."""
    from mam_bench.models.schelling.heuristic import SchellingHeuristic, _Board
    from mam_bench.models.schelling.model import SchellingWorld
    from mam_bench.models.schelling.params import SchellingParams

    checked = 0
    for seed in range(3):
        world = SchellingWorld(SchellingParams(size=size), seed=seed, mask_ids=(0, 1))
        play_round(world)
        o = world.observe(0)
        num, den = o.threshold.numerator, o.threshold.denominator
        board = _Board(o, num, den, integrate=True)
        for group in (0, 1):
            gain = board.gain(group)
            for cell in board.cells:
                alone = SchellingHeuristic._supply_change(
                    board.tg, (board.ca, board.cb), cell, group, True, board.demand, num, den
                )
                assert gain[cell] == board.take_value[cell] + alone, (seed, group, cell)
                checked += alone != 0
    assert checked  # some vacancies' supply does change
