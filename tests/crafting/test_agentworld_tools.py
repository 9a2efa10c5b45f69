"""AgentWorld's own tools in its tasks: `observe_environment` and `verify_inventory` spend the turn
and answer, `complete` takes the agent offline and ends the episode once everyone has called it,
transfers reach any distance (its `transfer_items`), and none of this reaches our own tasks."""

from __future__ import annotations

from pathlib import Path

from mam_bench.models.crafting.actions import validate_action
from mam_bench.models.crafting.agentworld.trajectory import trajectory
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.status import Status
from tests.crafting.test_agentworld_tasks import play, staff_task


def world_of(task: Path | str, **params: str) -> CraftingWorld:
    return CraftingWorld(CraftingWorld.Params.from_strings({"task": str(task), **params}), seed=0)


def act(world: CraftingWorld, agent: int, raw: dict) -> tuple[bool, str]:
    action, why = validate_action(raw)
    assert action is not None, why
    return world.execute(world.actors[agent], action)


def test_observe_and_verify_inventory_answer_in_agentworlds_names(tmp_path: Path) -> None:
    w = world_of(staff_task(tmp_path))
    ok, seen = act(w, 0, {"name": "observe_environment", "arguments": {}})
    assert ok and seen.startswith(f"at {w.actors[0].site}; nodes ")
    ok, detail = act(w, 2, {"tool": "verify_inventory", "required_items": ["bead", "staff"]})
    assert ok and detail == "holds bead x1; missing staff"
    actions = [a["action"] for r in trajectory(w)["rounds"] for a in r["actions"]]
    assert actions[-2:] == ["observe_environment()", "verify_inventory(items=['bead', 'staff'])"]


def test_complete_takes_the_agent_offline_and_everyone_completing_ends_the_episode(tmp_path: Path) -> None:
    w = world_of(staff_task(tmp_path))
    assert w.ends_at == "complete"
    assert act(w, 1, {"tool": "complete", "response": "done here"}) == (True, "done here")
    before = len(w.log)
    w.step()
    assert all(e["agent"] != 1 for e in w.log[before:]) and w.run.status == Status.RUNNING
    for i in (0, 2):
        act(w, i, {"tool": "complete"})
    w.step()
    assert w.run.status == Status.DONE and w.round == 2


def test_upstreams_episode_runs_to_its_limit_and_our_early_end_stays_a_named_option(tmp_path: Path) -> None:
    task = staff_task(tmp_path)
    upstream = play(task)
    assert upstream.verify()[0] == 1 and upstream.round == upstream.budget  # no early end at the pass
    ours = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(task), "episode_end": "verifier"}), seed=0)
    while ours.round < ours.budget and ours.run.status == Status.RUNNING:
        ours.step()
    assert ours.run.status == Status.SUCCESS and ours.round < ours.budget


def test_transfers_reach_any_distance_in_agentworlds_tasks_only(tmp_path: Path) -> None:
    w = world_of(staff_task(tmp_path))
    mage = w.actors[2]
    assert w.actors[0].site != mage.site
    ok, _ = act(w, 2, {"tool": "transfer_items", "item": "bead", "to": 0})
    assert ok and w.actors[0].held("bead") == 1
    ours = world_of("forge_vanguard")
    far = next(b for b in ours.actors[1:] if b.site != ours.actors[0].site)
    item = next(iter(ours.actors[0].inventory()), None) or "logs"
    ours.actors[0].give(item, 1, -1)
    ok, why = ours.execute(ours.actors[0], {"tool": "transfer", "item": item, "qty": 1, "to": far.actor_id})
    assert (ok, why) == (False, "not at the same site")


def test_agentworlds_tools_are_refused_in_our_tasks() -> None:
    w = world_of("forge_vanguard")
    for raw in ({"tool": "observe"}, {"tool": "verify_inventory", "items": ["logs"]}, {"tool": "complete"}):
        ok, why = act(w, 0, raw)
        assert not ok and why == f"{raw['tool']} is one of AgentWorld's tools, offered only in its tasks"
    assert not w.actors[0].offline and w.ends_at == "verifier"
