"""The action schema validates with reasons; the observation text parses back to the structure."""

from mam_bench.models.crafting.actions import TOOLS, parse_answer, validate_action
from mam_bench.models.crafting.agentworld.tools import AGENTWORLD_TOOLS
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.observe import CraftingObservation
from mam_bench.world import play_round


def test_validation_reasons_and_aliases():
    assert validate_action({"tool": "request_items", "item": "coal", "qty": 2, "to": 1}) == (
        {"tool": "request", "item": "coal", "qty": 2, "to": 1},
        "",
    )
    assert validate_action({"tool": "wait"})[0] == {"tool": "sleep"}
    action, reason = validate_action({"tool": "transfer", "item": "coal", "qty": 0, "to": 1})
    assert action is None and "qty" in reason
    assert validate_action("sleep")[1].startswith("action must be an object")
    assert "move_to needs site" in validate_action({"tool": "move_to"})[1]
    assert "sleep takes no item" in validate_action({"tool": "sleep", "item": "logs"})[1]


def test_parse_answer_reads_tool_calls_in_text():
    assert parse_answer('Sure.\n```json\n{"tool": "harvest", "node": "ore1"}\n```') == {
        "tool": "harvest",
        "node": "ore1",
    }
    assert parse_answer('{"name": "transfer_items", "arguments": {"item": "stick", "qty": 1, "to": 4}}') == {
        "tool": "transfer",
        "item": "stick",
        "qty": 1,
        "to": 4,
    }
    assert parse_answer("I think I will wait.") is None
    assert CraftingWorld.Action.parse_answer('{"tool": "chat", "message": "hi\\nthere"}')["message"] == "hi there"


def test_observation_text_round_trips_through_a_run():
    w = CraftingWorld(task="harvest_festival", seed=2)
    seen = 0
    while not w._done and w.round < 40:
        for aid in w.actor_ids():
            obs = w.observe(aid)
            assert CraftingObservation.from_text(obs.to_text()) == obs
            seen += 1
        play_round(w)
    assert seen > 100
    prompt = w.observe(0).prompt_text()
    assert "MUST call exactly ONE tool function" in prompt and "**Team Information:**" in prompt
    assert all((f'"tool": "{t}"' in prompt) == (t not in AGENTWORLD_TOOLS) for t in TOOLS)


def test_random_actions_are_valid_schema():
    import numpy as np

    w = CraftingWorld(task="forge_vanguard", seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        action = CraftingWorld.Action.random_action(w.observe(int(rng.integers(10))), rng)
        assert validate_action(action)[0] is not None


def test_action_schema_is_flat_for_structured_output():
    schema = CraftingWorld.Action.model_json_schema()
    assert set(schema["properties"]) == {
        "tool",
        "site",
        "node",
        "item",
        "skill",
        "qty",
        "to",
        "recipient",
        "message",
        "mob",
        "want",
        "want_qty",
        "offer",
        "items",
    }
    a = CraftingWorld.Action.model_validate(
        {"name": "craft_item", "arguments": {"item": "stick", "skill": "fletching"}}
    )
    assert a.as_json() == {"tool": "craft", "item": "stick", "skill": "fletching"}
