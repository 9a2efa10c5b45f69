"""Survival: every agent has health; a task's hunger drains it each round, food restores it.

An agent at 0 health is down: it can only eat (a teammate may hand it food), so keeping the team
fed is a shared job. Without hunger, sleeping rests 1 point (wounds from combat heal slowly).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.act import Act, Effect

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

MAX_HEALTH = 20
FOOD = {"apple": 4, "cooked_fish": 8, "bread": 10, "stew": 10, "potion": 10, "ration": 14}
LOW = 12  # an ordinary agent eats (or orders its task's staple food) at or below this
REST = 1
STARVING = 3  # below this an agent eats even food it owes (its target share, a request)


def setup(world: CraftingWorld) -> None:
    world.health = {a.actor_id: MAX_HEALTH for a in world.actors}
    world.eaten = {}


def down(world: CraftingWorld, a: CraftingAgent) -> bool:
    return world.health[a.actor_id] <= 0


def hurt(world: CraftingWorld, a: CraftingAgent, points: int) -> None:
    world.health[a.actor_id] = max(0, world.health[a.actor_id] - points)


class Eat(Act):
    """Eat one unit; the actions that produced it are the meal's causal parents. A down agent may."""

    tool = "eat"
    when_down = True
    item: str

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        if self.item not in FOOD:
            return f"{self.item} is not food"
        if a.held(self.item) <= 0:
            return f"holds no {self.item}"
        return "already at full health" if world.health[a.actor_id] >= MAX_HEALTH else ""

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        parents = a.take(self.item, 1)
        world.health[a.actor_id] = min(MAX_HEALTH, world.health[a.actor_id] + FOOD[self.item])
        world.eaten[self.item] = world.eaten.get(self.item, 0) + 1
        return parents, ""


class Sleep(Act):
    """A sleep heals 1 point where the task has no hunger (it only offsets wounds, not starvation)."""

    tool = "sleep"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        if world.task.hunger == 0 and not down(world, a):
            world.health[a.actor_id] = min(MAX_HEALTH, world.health[a.actor_id] + REST)
        return [], ""


def drain(world: CraftingWorld) -> None:
    """End of round: hunger costs every standing agent `task.hunger` health."""
    if world.task.hunger:
        for a in world.actors:
            if not down(world, a):
                hurt(world, a, world.task.hunger)


def rule(world: CraftingWorld, a: CraftingAgent) -> dict[str, Any] | None:
    """The ordinary agent's first concern when low: eat what it holds beyond what it owes
    (cheapest food first; anything when starving), else post one open order for its task's
    staple food; None when it is fine."""
    hp = world.health[a.actor_id]
    if hp > LOW:
        return None
    for item in sorted(FOOD, key=lambda f: (FOOD[f], f)):
        owed = sum(o.outstanding for o in a.obligations if o.item == item)
        if a.held(item) > owed or (a.held(item) > 0 and hp <= STARVING):
            return {"tool": "eat", "item": item}
    staple = world.task.staple
    if down(world, a) or staple is None:
        return None
    if any(o["frm"] == a.actor_id for o in world.open_orders(staple)):
        return None
    return {"tool": "request", "item": staple, "qty": 1}
