"""The crafting world in Mesa's shape: each ordinary agent's rule is its own `step()`, the round
plays the agents through an AgentSet in the round's order, and `steps` and the DataCollector
advance once per round, in the reference and in the treatment (both protocols)."""

import pytest

from mam_bench.models.crafting.action_table import ACTIONS, typed
from mam_bench.models.crafting.actions import OPTIONAL, REQUIRED, TOOLS
from mam_bench.models.crafting.agents import CraftingAgent
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.registry import make_controller
from mam_bench.runner import PairSpec, prepare, run_async, run_reference, run_treatment
from mam_bench.world import play_round


def test_the_ordinary_agent_class_defines_its_own_step():
    assert "step" in vars(CraftingAgent)


def test_every_tool_has_a_typed_action_with_the_schemas_fields():
    assert set(ACTIONS) == set(TOOLS)
    for tool, act in ACTIONS.items():
        assert act.tool == tool
        assert set(act.model_fields) == set(REQUIRED[tool]) | set(OPTIONAL.get(tool, ())), tool
        required = {f for f, info in act.model_fields.items() if info.is_required()}
        assert required <= set(REQUIRED[tool]), tool


def test_a_typed_action_refuses_a_field_its_tool_does_not_take():
    with pytest.raises(ValueError):
        typed({"tool": "harvest", "node": "ore1", "item": "logs"})


def test_an_agents_step_is_its_turn_by_its_rule():
    """Stepping one agent logs one action by it: the one its rule picked from that state."""
    w = CraftingWorld(task="forge_vanguard", seed=2)
    a = w.actors[3]
    expected = w.rule_action(3)
    a.step()
    assert [(e["agent"], {"tool": e["tool"], **e["args"]}) for e in w.log] == [(3, expected)]


def test_the_round_plays_the_agents_in_the_rounds_order():
    w = CraftingWorld(task="forge_vanguard", seed=5, turn_order="shuffle")
    order = w.turn_order()
    assert [a.actor_id for a in w.round_order()] == order != sorted(order)
    play_round(w)
    assert [e["agent"] for e in w.log] == order


@pytest.mark.parametrize("protocol", ["start_of_round", "round_robin"])
@pytest.mark.parametrize("policy", ["rule", "random"])
def test_steps_and_the_datacollector_advance_once_per_round(protocol, policy):
    spec = PairSpec(world="crafting", seed=1, params={"task": "staff_quest", "protocol": protocol}, controller=policy)
    prep = prepare(spec)
    reference, _ = run_reference(prep)
    controller = make_controller(policy, prep.world_cls, prep.objective, {})
    treatment = run_async(run_treatment(prep, controller))[0]
    for world in (reference, treatment):
        assert world.round > 0 and world.steps == world.round
        assert len(world.datacollector.get_model_vars_dataframe()) == world.round + 1
    assert treatment._done or treatment.round == treatment.budget  # to success, or its horizon


def test_mesas_own_loop_counts_one_step_per_round_and_stops_when_done():
    w = CraftingWorld(task="staff_quest", seed=0)
    while w.running:
        w.step()
    assert w._done and w.steps == w.round <= w.budget
