"""The states a verifier reads: the final state of everyone's work (`final_state`), the same as the
unmasked agents alone produced it (`own_state`, the conservative count), and the trajectory a task
file's own verifier reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld


def own_state(world: CraftingWorld) -> dict[str, Any]:
    """The final state as the unmasked agents alone produced it: held units count only when the
    action that put them there (a craft, harvest or transfer) was by an unmasked agent or they
    were there at the start; crafts and harvests by masked agents do not count; masked agents
    stand nowhere. In the reference the mask names the same agents, so the two compare."""
    mask = set(world.run.mask_ids)

    def mine(src: int) -> bool:
        return src < 0 or world.log[src]["agent"] not in mask

    inventories = {}
    for a in world.actors:
        inv: dict[str, int] = {}
        for item, lots in a.lots.items():
            n = sum(q for src, q in lots if mine(src))
            if n > 0:
                inv[item] = n
        inventories[a.actor_id] = inv
    return {
        "inventories": inventories,
        "sites": {a.actor_id: a.site for a in world.actors if a.actor_id not in mask},
        "crafted": dict(world.crafted_own),
        "harvested": dict(world.harvested_own),
        "kills": dict(world.kills_own),
        "health": {i: h for i, h in world.health.items() if i not in mask},
        "known": {a.actor_id: sorted(a.known) for a in world.actors if a.actor_id not in mask},
        "trades": sum(1 for t in world.trades if t["frm"] not in mask and t["by"] not in mask),
    }


def final_state(world: CraftingWorld) -> dict[str, Any]:
    """What a verifier reads (the same shape tests hand-build)."""
    return {
        "inventories": {a.actor_id: a.inventory() for a in world.actors},
        "equipment": {a.actor_id: sorted(a.equipment) for a in world.actors},
        "sites": {a.actor_id: a.site for a in world.actors},
        "crafted": dict(world.crafted),
        "harvested": dict(world.harvested),
        "kills": dict(world.kills),
        "health": dict(world.health),
        "known": {a.actor_id: sorted(a.known) for a in world.actors},
        "trades": len(world.trades),
    }


def trajectory(world: CraftingWorld) -> dict[str, Any]:
    """What a task file's own verifier reads (task_files.py): the final state and every action."""
    return {
        "task": world.task.name,
        "round": world.round,
        "final_state": final_state(world),
        "actions": list(world.log),
    }
