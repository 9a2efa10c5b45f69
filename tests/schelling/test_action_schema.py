"""The Schelling action schema is strict: schema-valid means valid, bar occupancy/collision."""

from __future__ import annotations

import jsonschema
import pytest

from mam_bench.models.schelling.actions import SchellingAction
from mam_bench.models.schelling.influence import InfluenceMoves
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.protocol import Decision
from tests.support.schema_draws import draw_instances

WORLD = SchellingWorld(seed=22, influence_ids=(0, 1), role="treatment", priority="first")
SCHEMA = WORLD.action_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_every_schema_instance_passes_the_validator_or_fails_only_for_occupancy():
    seen: dict[str, int] = {}
    for action in draw_instances(SCHEMA, 1000, seed=7):
        VALIDATOR.validate(action)  # the sampler draws only schema-valid instances
        # actor 0 proposes the drawn action; actor 1 proposes the same, so a move can also collide
        moves = InfluenceMoves(WORLD, {0: Decision(action=action), 1: Decision(action=action)})
        entries = sorted(moves.entries, key=lambda e: e.actor_id)
        outcomes = [e.outcome for e in entries]
        seen[outcomes[0]] = seen.get(outcomes[0], 0) + 1
        assert outcomes[0] in ("accepted", "stay", "occupied"), (action, entries[0])
        assert outcomes[1] in ("stay", "occupied", "collision"), (action, entries[1])
    # the 1,000 draws were not all one kind
    assert {"accepted", "stay", "occupied"} <= set(seen), seen


@pytest.mark.parametrize(
    "bad",
    [
        {"stay": True, "row": 1, "col": 2},  # the stay/move mix
        {"stay": False, "row": 1, "col": 2},
        {"row": 1},
        {},
        {"row": 20, "col": 0},  # outside a 20x20 board
        {"row": -1, "col": 0},
        {"row": 1.5, "col": 0},
        {"row": 1, "col": 2, "why": "x"},
        {"stay": False},
    ],
)
def test_the_schema_rejects_what_the_world_would_reject(bad):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)


def test_the_class_schema_is_the_strict_one_without_a_size():
    schema = SchellingAction.model_json_schema()
    assert [v["required"] for v in schema["oneOf"]] == [["stay"], ["row", "col"]]
    assert "maximum" not in schema["oneOf"][1]["properties"]["row"]
    assert SCHEMA["oneOf"][1]["properties"]["col"]["maximum"] == 19
