"""Acceptance 4: under the runner every world's `model.steps` equals the rounds played and its
DataCollector holds the setup state plus one row per round."""

from __future__ import annotations

import pytest

from mam_bench.adapter import MesaWorld
from mam_bench.registry import world_names
from mam_bench.runner import PairSpec, prepare, run_async, run_reference, run_treatment
from mam_bench.steering.random_policy import RandomController

ROUNDS = 6


def _rows(world) -> int:
    return len(world.datacollector.get_model_vars_dataframe())


@pytest.mark.parametrize("name", world_names())
def test_steps_and_datacollector_follow_the_rounds(name: str) -> None:
    prep = prepare(PairSpec.build(world=name, seed=1, rounds=ROUNDS, influence=2))
    ref, _ = run_reference(prep)
    tre, _, _, _ = run_async(run_treatment(prep, RandomController(prep.world_cls)))
    for world in (ref, tre):
        assert world.round > 0
        assert world.steps == world.round
        assert _rows(world) == world.round + 1
        if isinstance(world, MesaWorld):  # the user's own model keeps its own bookkeeping too
            assert world.model.steps == world.round
            assert _rows(world.model) == world.round + 1
    assert tre.round == ROUNDS or tre._done
