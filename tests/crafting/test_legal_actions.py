"""The random controller draws among legal actions of all 13 tools: every action the observation
lists as legal passes the world's own precondition, on states of real runs."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.crafting.action_table import precondition, typed
from mam_bench.models.crafting.actions import TOOLS
from mam_bench.models.crafting.agentworld.tools import AGENTWORLD_TOOLS
from mam_bench.models.crafting.legal import legal_actions, random_legal_action
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.runner import step_reference

#: tasks whose runs reach combat, food, exploration and trade, under two conditions
CASES = [
    ("forge_vanguard", "standard"),
    ("goblin_clearing", "standard"),
    ("winter_camp", "standard"),
    ("cave_survey", "standard"),
    ("market_day", "standard"),
    ("forge_vanguard", "no_communication"),
]


def states(task: str, condition: str, seeds: range = range(3), rounds: int = 25):
    for seed in seeds:
        w = CraftingWorld(task=task, condition=condition, seed=seed)
        w.actors[0].give("fishing_rod", 1, -1)  # a spare tool, so that `equip` is legal for someone
        w.actors[1].equipment.clear()  # and an agent without its tool, so that some harvests are not
        for _ in range(rounds):
            yield w
            if w._done:
                break
            step_reference(w)


@pytest.mark.parametrize(("task", "condition"), CASES)
def test_every_listed_action_passes_the_worlds_precondition(task: str, condition: str) -> None:
    checked = 0
    for w in states(task, condition):
        for a in w.actors:
            for tool, actions in legal_actions(w.observe(a.actor_id)).items():
                for action in actions:
                    why = precondition(w, a, typed({"to": None, **action}))
                    assert why in ("", "the offer is no longer covered"), (tool, action, why)
                    checked += 1
    assert checked > 1000


def test_random_draws_reach_all_thirteen_tools_and_only_legal_ones() -> None:
    rng = np.random.default_rng(0)
    legal: set[str] = set()
    drawn: set[str] = set()
    for task, condition in CASES[:5]:
        for w in states(task, condition, seeds=range(2)):
            for a in w.actors:
                obs = w.observe(a.actor_id)
                legal |= set(legal_actions(obs))
                for _ in range(4):
                    action = random_legal_action(obs, rng)
                    assert precondition(w, a, typed({"to": None, **action})) in ("", "the offer is no longer covered")
                    drawn.add(action["tool"])
    assert legal == set(TOOLS) - AGENTWORLD_TOOLS  # AgentWorld's own tools: only in its tasks
    assert drawn == legal


def test_no_talking_tool_is_legal_without_communication() -> None:
    for w in states("forge_vanguard", "shared_plan_only", seeds=range(1), rounds=10):
        for a in w.actors:
            assert not {"chat", "request", "transfer", "offer_trade", "accept_trade"} & set(
                legal_actions(w.observe(a.actor_id))
            )
