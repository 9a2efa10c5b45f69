"""A nested oracle is monotone in its budget: more candidates or more sweeps never end lower.

Without `nested` the search path of a larger budget can leave a smaller one's (civil violence
`calm`, seed 1000: `candidates=8, sweeps=3` ended at 2 where `candidates=3, sweeps=2` reached 3).
With it, the oracle at (candidates N, sweeps M) first plays every budget c <= N, s <= M from the
start, each seeded with the plans of the budgets it holds, and records where each ended (its
`ladder`): those are exactly the runs a nested oracle of that budget plays, so one run holds the
whole grid, and a second test checks the ladder against separately played pairs.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest

from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare, run_pair
from mam_bench.steering.oracle import OracleController

#: three worlds in which the budgets end at different values (so the order is tested, not a tie)
CASES = [
    ("flocking", "help", {}, 4),
    ("schelling", "integrate", {"size": 8}, 3),
    ("civil_violence", "incite", {}, 3),
]
TOP = (4, 3)  # candidates 0..4, sweeps 1..3


def spec(world: str, objective: str, params: dict, rounds: int, **options) -> PairSpec:
    return PairSpec.build(
        world=world,
        seed=1000,
        params=params,
        objective=objective,
        controller="oracle" if options else "rule",
        influence=2,
        rounds=rounds,
        controller_options=options,
    )


def nested_run(world: str, objective: str, params: dict, rounds: int) -> tuple[dict, float]:
    """The top budget played as the runner plays it (plan on forks, then the round): its ladder and
    where it ended, directed."""
    live = prepare(spec(world, objective, params, rounds)).new_world(treatment=True)
    oracle = OracleController(get_world(world), objective, candidates=TOP[0], sweeps=TOP[1], nested=True)
    oracle.bind(world, objective, 1000)

    async def play() -> None:
        while live.round < rounds and not (live._done and live.scoring.treatment_stops_early):
            await oracle.plan_round(live, rounds)
            await oracle.play(live, oracle)

    asyncio.run(play())
    return oracle.ladder, oracle.direction * live.metrics()[oracle.metric]


@pytest.mark.parametrize(("world", "objective", "params", "rounds"), CASES, ids=[c[0] for c in CASES])
def test_more_budget_never_lowers_the_oracles_lift(world, objective, params, rounds) -> None:
    ladder, top = nested_run(world, objective, params, rounds)
    ladder[TOP] = top
    assert set(ladder) == {(c, s) for c in range(TOP[0] + 1) for s in range(1, TOP[1] + 1)}
    assert len(set(ladder.values())) > 1, "every budget ties: the case tests no order"
    for (c, s), (c2, s2) in itertools.product(ladder, ladder):
        if c <= c2 and s <= s2:
            assert ladder[(c2, s2)] >= ladder[(c, s)], ((c, s), ladder[(c, s)], (c2, s2), ladder[(c2, s2)])


def test_the_ladder_is_what_each_budget_plays_on_its_own() -> None:
    """Two budgets played as pairs (nested, through the runner) differ by what the ladder says."""
    world, objective, params, rounds = CASES[1]
    ladder, _ = nested_run(world, objective, params, rounds)
    lifts = {
        b: float(run_pair(spec(world, objective, params, rounds, candidates=b[0], sweeps=b[1], nested=True))["lift"])
        for b in ((0, 1), (2, 2))
    }
    assert lifts[(2, 2)] - lifts[(0, 1)] == pytest.approx(ladder[(2, 2)] - ladder[(0, 1)], abs=1e-12)


def played_run(world: str, objective: str, params: dict, rounds: int, seed: int, handed=None, **options) -> tuple:
    """One oracle played as the runner plays it, optionally handed a script: (its plan, where it ended)."""
    live = prepare(spec(world, objective, params, rounds).model_copy(update={"seed": seed})).new_world(treatment=True)
    oracle = OracleController(get_world(world), objective, **options)
    oracle.bind(world, objective, seed)
    if handed is not None:
        oracle.inherited = [handed]

    async def play() -> None:
        while live.round < rounds and not (live._done and live.scoring.treatment_stops_early):
            await oracle.plan_round(live, rounds)
            await oracle.play(live, oracle)

    asyncio.run(play())
    return tuple(oracle.played), oracle.direction * live.metrics()[oracle.metric]


def test_a_handed_plan_is_kept_unless_something_beats_it() -> None:
    """The smallest budget alone ends below a larger one here; handed the larger one's plan (what
    `nested` hands every budget), it ends at least where that plan ends."""
    world, objective, params, rounds, seed = "flocking", "help", {}, 4, 1002
    plan, big = played_run(world, objective, params, rounds, seed, candidates=4, sweeps=3)
    _, small = played_run(world, objective, params, rounds, seed, candidates=0, sweeps=1)
    assert small < big, "the case does not separate the budgets"
    _, handed = played_run(world, objective, params, rounds, seed, handed=plan, candidates=0, sweeps=1)
    assert handed >= big
