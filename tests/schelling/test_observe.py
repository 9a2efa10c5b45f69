"""The compact observation text carries exactly the structure's information."""

from __future__ import annotations

import asyncio

from mam_bench.models.schelling.observe import SchellingObservation
from mam_bench.runner import PairSpec, prepare, run_treatment
from mam_bench.steering.random_policy import RandomController


def test_compact_text_round_trips_and_is_shorter_than_naive():
    prep = prepare(PairSpec.build(world="schelling", seed=22, controller="random"))
    ctl = RandomController(prep.world_cls)
    world, _, _, _ = asyncio.run(run_treatment(prep, ctl))
    for aid in prep.influence_ids:
        obs = world.observe(aid)
        text = obs.to_text()
        assert SchellingObservation.from_text(text) == obs
        assert len(text) < len(obs.to_naive_text())
    assert obs.last_outcomes, "the last round's outcomes are part of the observation"


def test_grid_marks_influence_and_dissatisfied_agents():
    prep = prepare(PairSpec.build(world="schelling", seed=22))
    world = prep.new_world(True)
    obs = world.observe(0)
    flat = "".join(obs.grid)
    assert flat.count("X") == 8 and flat.count("Y") == 8
    assert flat.count(".") == 100
    assert flat.count("a") + flat.count("b") == world.metrics()["dissatisfied"]
