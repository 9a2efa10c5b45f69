"""The schema sampler behind the 1,000-instance action-schema tests draws only valid instances,
reaches every alternative and both bounds, and refuses what it cannot honour."""

from __future__ import annotations

import re

import jsonschema
import pytest

from tests.support.schema_draws import UnsupportedSchema, draw_instances

SCHEMA = {
    "$defs": {"Cell": {"type": "integer", "minimum": 0, "maximum": 9}},
    "oneOf": [
        {
            "type": "object",
            "properties": {"stay": {"const": True}},
            "required": ["stay"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "row": {"$ref": "#/$defs/Cell"},
                "col": {"$ref": "#/$defs/Cell"},
                "why": {"type": "string", "maxLength": 5},
            },
            "required": ["row", "col"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "say": {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "^[a-z0-9_]+( [a-z0-9_]+)*$"},
                "to": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 3}, {"type": "null"}]},
            },
            "required": ["say"],
            "additionalProperties": False,
        },
    ],
}


def test_every_draw_is_valid_and_every_branch_and_bound_is_reached():
    draws = draw_instances(SCHEMA, 1000, seed=1)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for d in draws:
        validator.validate(d)
    kinds = {next(iter(sorted(d))) for d in draws}
    assert kinds == {"stay", "col", "say"}
    rows = {d["row"] for d in draws if "row" in d}
    assert {0, 9} <= rows
    assert any("why" in d for d in draws) and any("row" in d and "why" not in d for d in draws)
    said = [d["say"] for d in draws if "say" in d]
    assert all(re.fullmatch("[a-z0-9_]+( [a-z0-9_]+)*", s) for s in said)
    assert any(" " in s for s in said)
    assert {type(d["to"]) for d in draws if "to" in d} == {int, type(None)}


def test_the_same_seed_draws_the_same_instances():
    assert draw_instances(SCHEMA, 50, seed=3) == draw_instances(SCHEMA, 50, seed=3)
    assert draw_instances(SCHEMA, 50, seed=3) != draw_instances(SCHEMA, 50, seed=4)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"type": "integer"}}},  # open object
        {"type": "string", "format": "email"},
        {"type": "integer", "multipleOf": 3},
        {"not": {"type": "null"}},
        {"type": "string", "pattern": "a(?=b)"},
    ],
)
def test_a_keyword_it_cannot_honour_raises(schema):
    with pytest.raises(UnsupportedSchema):
        draw_instances(schema, 5)
