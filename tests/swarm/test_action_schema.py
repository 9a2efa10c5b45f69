"""Strict swarm action schemas: 1,000 instances drawn from
each task's JSON schema all pass the world's own validation (schema-valid means valid)."""

from __future__ import annotations

import jsonschema
import pytest

from mam_bench.models.swarm.params import TASKS
from mam_bench.protocol import Decision
from mam_bench.registry import get_world
from tests.support.schema_draws import draw_instances


@pytest.mark.parametrize("task", TASKS)
def test_every_schema_instance_is_a_valid_action(task):
    cls = get_world(task)
    world = cls(cls.Params(), seed=0, influence_ids=[0])
    schema = cls.Action.model_json_schema()
    assert schema["required"] == ["action"] and schema["additionalProperties"] is False

    instances = draw_instances(schema, 1000, seed=7)
    validator = jsonschema.Draft202012Validator(schema)
    for instance in instances:
        validator.validate(instance)  # the sampler draws only schema-valid instances
        action, _, problem = world._decision_action(Decision(action=instance))
        assert problem == "" and action in cls.allowed, (instance, problem)
    # the draws covered every action and both kinds of message
    assert {i["action"] for i in instances} == set(schema["properties"]["action"]["enum"])
    assert {type(i.get("message")) for i in instances} == {str, type(None)}


@pytest.mark.parametrize("task", TASKS)
def test_a_missing_action_is_invalid(task):
    cls = get_world(task)
    world = cls(cls.Params(), seed=0, influence_ids=[0])
    action, _, problem = world._decision_action(Decision(action={"message": "hi"}))
    assert action is None and problem
