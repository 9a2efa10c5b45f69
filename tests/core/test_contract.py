"""The world contract is explicit: one constructor signature, named settings instead of attribute
probing, and status values that stay plain strings in the records."""

from __future__ import annotations

import argparse
import inspect
import json

import pytest

from mam_bench import capabilities
from mam_bench.capabilities import PerTurnDecisions, ReferenceLandscape, Tasks
from mam_bench.commands import tasks
from mam_bench.errors import ConfigError
from mam_bench.outcome import validity
from mam_bench.records import dumps
from mam_bench.registry import get_world, load, make_controller, registration, world_names
from mam_bench.runner import PairSpec, Treatment, prepare, round_row
from mam_bench.status import Status, Validity
from mam_bench.world import SteerableWorld

CAPABILITIES = [
    value
    for value in vars(capabilities).values()
    if isinstance(value, type) and getattr(value, "_is_protocol", False) and value.__module__ == capabilities.__name__
]


@pytest.mark.parametrize("name", world_names())
def test_every_world_takes_params_and_seed_positionally_and_the_rest_by_keyword(name):
    sig = inspect.signature(get_world(name).__init__)
    kinds = {p.name: p.kind for p in sig.parameters.values()}
    positional = [n for n, k in kinds.items() if k == inspect.Parameter.POSITIONAL_OR_KEYWORD]
    assert positional == ["self", "params", "seed"], (name, sig)
    assert inspect.Parameter.VAR_POSITIONAL not in kinds.values(), (name, sig)


def test_influence_ids_cannot_be_passed_by_position():
    cls = get_world("synchronization")
    with pytest.raises(TypeError):
        cls(None, 0, (0, 1))


def test_a_world_influence_parameter_sets_the_count_and_its_board_parameter_the_board():
    # SwarmParams declares `influence` and `board` (models/swarm/params.py); Schelling declares
    # neither, so it falls back to its class default of 16 (models/schelling/model.py).
    prep = prepare(PairSpec(world="synchronization", seed=1, params={"influence": "3", "board": "false"}))
    assert len(prep.influence_ids) == 3
    treatment = Treatment(prep, make_controller("rule", prep.world_cls, prep.objective))
    assert treatment.board.enabled is False
    default = prepare(PairSpec(world="synchronization", seed=1))
    on = Treatment(default, make_controller("rule", default.world_cls, default.objective))
    assert on.board.enabled is True and len(default.influence_ids) == 2
    assert len(prepare(PairSpec(world="schelling", seed=1)).influence_ids) == 16


def test_a_capability_is_had_by_defining_it_and_asked_for_one_way():
    schelling, crafting = get_world("schelling"), get_world("crafting")
    assert isinstance(crafting.Params, Tasks) and not isinstance(schelling.Params, Tasks)
    assert isinstance(load(registration("schelling").landscape_kernel), ReferenceLandscape)
    assert registration("crafting").landscape_kernel is None
    assert isinstance(crafting, PerTurnDecisions) and not isinstance(schelling, PerTurnDecisions)
    # the base class holds no stub of any capability (a stub would make every world "have" it)
    for capability in CAPABILITIES:
        assert not isinstance(SteerableWorld, capability), capability.__name__
    with pytest.raises(ConfigError, match="no tasks"):
        tasks.handle(argparse.Namespace(world="schelling", check=None))


def test_status_values_are_enum_members_and_serialise_as_the_plain_strings():
    prep = prepare(PairSpec(world="schelling", seed=1))
    row = round_row(prep.new_world(treatment=False))
    assert row["status"] is Status.RUNNING
    assert json.loads(dumps(row))["status"] == "running"
    assert json.dumps({s.name: s for s in Status}) == json.dumps({s.name: s.value for s in Status})


def test_validity_is_an_enum_that_serialises_as_the_plain_string():
    # outcome.validity: more than max_error_share of the decisions with an error is invalid
    invalid = validity([{"error": "timeout"}, {"outcome": "accepted"}], max_error_share=0.25)
    valid = validity([{"error": "timeout"}, {"outcome": "accepted"}], max_error_share=0.5)
    assert invalid["status"] is Validity.INVALID and valid["status"] is Validity.VALID
    assert json.loads(dumps(invalid))["status"] == "invalid"
