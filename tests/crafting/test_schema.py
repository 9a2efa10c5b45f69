"""The strict action schema; every instance it allows passes the validator."""

import jsonschema

from mam_bench.models.crafting.actions import strict_schema, validate_action
from tests.support.schema_draws import draw_instances

SCHEMA = strict_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_every_schema_instance_passes_the_validator():
    actions = draw_instances(SCHEMA, 1000, seed=7)
    for action in actions:
        VALIDATOR.validate(action)  # the sampler draws only schema-valid instances
        ok, reason = validate_action(action)
        assert ok is not None, (action, reason)
    # every tool of the schema was drawn
    tools = {branch["properties"]["tool"]["const"] for branch in SCHEMA["oneOf"]}
    assert {a["tool"] for a in actions} == tools


def test_the_schema_rejects_mixed_and_unbounded_actions():
    bad = [
        {"tool": "sleep", "site": "town"},  # sleep with a move field
        {"tool": "move_to"},  # missing site
        {"tool": "transfer", "item": "logs", "qty": 0, "to": 1},  # qty below 1
        {"tool": "request", "item": "logs", "qty": 21},  # request above 20
        {"tool": "harvest", "node": "nowhere"},
        {"tool": "transfer", "item": "logs", "to": 20},  # agent id beyond any task
        {"tool": "offer_trade", "item": "coin", "qty": 2, "want": "plank"},  # want_qty missing
        {"tool": "offer_trade", "item": "coin", "qty": 2, "want": "plank", "want_qty": 51},
        {"tool": "accept_trade"},  # which offer?
        {"tool": "accept_trade", "offer": 1, "item": "coin"},  # a field of another tool
        {"tool": "attack", "mob": "dragon"},
        {"tool": "explore", "site": "cave"},
    ]
    for action in bad:
        assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(action), action
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid({"tool": "request", "item": "coal", "qty": 2})
    trade = {"tool": "offer_trade", "item": "coin", "qty": 2, "want": "plank", "want_qty": 1}
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(trade)
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid({"tool": "accept_trade", "offer": 7})
