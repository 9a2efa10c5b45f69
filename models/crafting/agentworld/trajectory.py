"""The trajectory AgentWorld's verifiers read, recorded from a run of this world: per round, every
action as `agent_name` (the agent's key in the task file), `action` text, a `status` line with hit
points and an `observation` with the outcome and the agent's inventory after the action, all in
AgentWorld's item names."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.actions import ALIASES
from mam_bench.models.crafting.agentworld.names import theirs
from mam_bench.models.crafting.survival import MAX_HEALTH

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld


#: this world's tool -> AgentWorld's name for it
TOOLS = {ours: theirs_ for theirs_, ours in ALIASES.items() if theirs_ not in ("move", "wait")}


def after_action(world: CraftingWorld, agent_id: int, action: dict[str, Any]) -> dict[str, Any]:
    """What the log keeps of an agent right after its action (only for AgentWorld tasks): its
    inventory and hit points, and an attacked mob's hit points."""
    inv = world.actors[agent_id].inventory()
    seen: dict[str, Any] = {
        "inventory": [{"key": theirs(k), "count": n} for k, n in sorted(inv.items()) if n > 0],
        "hp": world.health.get(agent_id, MAX_HEALTH),
    }
    mob = world.cat.mobs.get(str(action.get("mob", ""))) if action.get("tool") == "attack" else None
    if mob is not None:
        seen["mobs"] = [{"name": mob.kind, "instance": mob.mob_id, "hitPoints": world.mob_health.get(mob.mob_id, 0)}]
    return seen


def _text(entry: dict[str, Any]) -> str:
    """The action as AgentWorld writes it: its tool name, the target instance of an attack."""
    args = {("targetInstance" if k == "mob" else k): v for k, v in entry["args"].items()}
    text = ", ".join(f"{k}={_named(v)}" for k, v in args.items())
    return f"{TOOLS.get(entry['tool'], entry['tool'])}({text})"


def _named(value: Any) -> Any:
    """An argument in AgentWorld's item names (a name, or a list of names)."""
    if isinstance(value, list):
        return [_named(v) for v in value]
    return theirs(value) if isinstance(value, str) else value


def agent_keys(file: dict[str, Any], n: int) -> list[str]:
    """The name each agent has in AgentWorld's trajectories: its key in the task file (`agent_3`),
    which the verifiers index by (task 44's `inventories['agent_3']`) and map to usernames."""
    keys = sorted((k for k in file if re.fullmatch(r"agent_\d+", str(k))), key=lambda k: int(k.split("_")[1]))
    return [keys[i] if i < len(keys) else f"agent_{i + 1}" for i in range(n)]


def trajectory(world: CraftingWorld) -> dict[str, Any]:
    rounds: dict[int, list[dict[str, Any]]] = {}
    file = (world.task.agentworld or {}).get("file", {})
    names = agent_keys(file, len(world.actors))
    for e in world.log:
        seen = e["after"]
        rounds.setdefault(e["round"] + 1, []).append(
            {
                "agent_name": names[e["agent"]],
                "action": _text(e),
                "status": f"❤️{seen['hp']}/{MAX_HEALTH}",
                "observation": {
                    "status": "success" if e["ok"] else "failed",
                    "result": e["detail"],
                    "inventory": {"items": seen["inventory"]},
                    "playerStatus": {"hitPoints": seen["hp"]},
                    **({"mobs": seen["mobs"]} if "mobs" in seen else {}),
                },
            }
        )
    return {"task_definition": file, "rounds": [{"round": r, "actions": acts} for r, acts in sorted(rounds.items())]}
