"""Strict swarm action schemas (issue 15, acceptance 5, swarm share): 1,000 instances drawn from
each task's JSON schema all pass the world's own validation (schema-valid means valid)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from mam_bench.models.swarm.params import TASKS

from mam_bench.controller import Decision
from mam_bench.registry import get_world


@pytest.mark.parametrize("task", TASKS)
def test_every_schema_instance_is_a_valid_action(task):
    cls = get_world(task)
    world = cls(cls.Params(), seed=0, influence_ids=[0])
    schema = cls.Action.model_json_schema()
    assert schema["required"] == ["action"] and schema["additionalProperties"] is False

    @settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(from_schema(schema))
    def check(instance):
        action, _, problem = world._decision_action(Decision(action=instance))
        assert problem == "" and action in cls.allowed, (instance, problem)

    check()


@pytest.mark.parametrize("task", TASKS)
def test_a_missing_action_is_invalid(task):
    cls = get_world(task)
    world = cls(cls.Params(), seed=0, influence_ids=[0])
    action, _, problem = world._decision_action(Decision(action={"message": "hi"}))
    assert action is None and problem
