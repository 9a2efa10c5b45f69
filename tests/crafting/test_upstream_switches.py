"""Upstream's switches as its `agents/experiment.py` defines them: discussion rounds (chat only,
then no communication), random spawns in the spawn box +5 cells or in `spawn_region`, the random
agent's flat list in AgentWorld's tasks, and upstream's refusals of conflicting switches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mam_bench.errors import ConfigError
from mam_bench.models.crafting.conditions import SPAWN_MARGIN
from mam_bench.models.crafting.legal import flat_actions, random_legal_action
from mam_bench.models.crafting.model import CraftingWorld
from tests.crafting.test_agentworld_tasks import staff_task


def world(seed: int = 0, **params: str) -> CraftingWorld:
    return CraftingWorld(CraftingWorld.Params.from_strings({"task": "forge_vanguard", **params}), seed=seed)


def test_discussion_rounds_offer_only_chat_then_cut_communication() -> None:
    w = world(discussion_rounds="2")
    a = w.actors[0]
    assert w.condition_now == "discussion"
    ok, why = w.execute(a, {"tool": "move_to", "site": "mine"})
    assert not ok and why == "move_to is unavailable: discussion rounds (only chat until round 2)"
    assert w.execute(a, {"tool": "chat", "message": "plan"})[0]
    prompt = w.observe(0).prompt_text()
    assert '{"tool": "chat", "message": TEXT' in prompt and '{"tool": "harvest", "node": NODE}' not in prompt
    w.step()
    w.step()
    assert w.condition_now == "no_communication" and w.round == 2
    ok, why = w.execute(a, {"tool": "chat", "message": "plan"})
    assert not ok and why == "chat is unavailable: no communication under condition no_communication"
    assert w.observe(0).team == [(0, a.username, a.role)]


def test_random_spawns_fall_in_the_spawn_box_or_the_given_region() -> None:
    base = world()
    xs, ys = zip(*(a.xy for a in base.actors))
    cells = set()
    for seed in range(5):
        w = world(seed=seed, condition="random_spawn")
        for a in w.actors:
            x, y = a.xy
            assert (
                min(xs) - SPAWN_MARGIN <= x <= max(xs) + SPAWN_MARGIN
                and min(ys) - SPAWN_MARGIN <= y <= max(ys) + SPAWN_MARGIN
            )
            assert a.site == next((s for s, xy in w.cat.sites.items() if xy == a.xy), "")
            cells.add(a.xy)
    assert len(cells) > 20  # drawn, not the sites
    w = world(condition="no_roles,random_spawn", spawn_region="20,20,21,23")
    assert all(20 <= a.xy[0] <= 21 and 20 <= a.xy[1] <= 23 for a in w.actors)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"discussion_rounds": "3", "condition": "no_communication"}, "discussion_rounds"),
        ({"discussion_rounds": "3", "condition": "shared_plan_only"}, "discussion_rounds"),
        ({"spawn_region": "0,0,5,5"}, "spawn_region"),
    ],
)
def test_conflicting_switches_are_refused_as_upstream_refuses_them(params: dict, field: str) -> None:
    with pytest.raises(ConfigError) as err:
        world(**params)
    assert str(err.value).startswith(f"param.{field}: ")


def test_the_random_agent_draws_upstreams_flat_list_in_agentworlds_tasks(tmp_path: Path) -> None:
    w = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(staff_task(tmp_path))}), seed=0)
    rng = np.random.default_rng(0)
    seen: set[str] = set()
    for _ in range(30):
        for a in w.actors:
            obs = w.observe(a.actor_id)
            flat = flat_actions(obs, np.random.default_rng(1))
            assert sum(x["tool"] == "move_to" for x in flat) <= 1 and {"tool": "sleep"} in flat
            assert len(flat) == len({str(x) for x in flat})
            action = random_legal_action(obs, rng)
            seen.add(action["tool"])
            w.execute(a, action)
        w.step()
    assert seen <= {"move_to", "harvest", "attack", "equip", "sleep", "chat", "transfer"}
    assert {"move_to", "harvest", "sleep", "chat"} <= seen


def test_a_spawn_on_a_hidden_sites_cell_is_between_sites() -> None:
    w = CraftingWorld(
        CraftingWorld.Params.from_strings(
            {"task": "cave_survey", "condition": "random_spawn", "spawn_region": "23,9,23,9"}
        ),
        seed=0,
    )
    assert all(a.xy == (23, 9) and a.site == "" for a in w.actors)  # the cave is on nobody's map yet
    w.step()
    assert w.round == 1
