"""Combat: mobs with health and damage stand at sites; `attack` trades blows and a kill drops loot.

Hits and counter-strikes come from a world stream keyed by round, mob, the attacker and its
action this round, never by a count of blows that other agents advance, so who else attacks
does not move anyone's draws. A killed mob returns at full
health after its respawn delay (0: never). Damage: 3 with strength, plus the best equipped weapon;
armor blunts the mob's counter-strike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting import survival
from mam_bench.models.crafting.act import Act, Effect, last_move
from mam_bench.streams import stream

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

HIT_CHANCE = 0.8
BASE_DAMAGE = 3
WEAPONS = {"heavysword": 5, "bow": 3, "axe": 2}
ARMOR = {"armor": 2}


def setup(world: CraftingWorld) -> None:
    world.mob_health = {m: spec.health for m, spec in world.cat.mobs.items()}
    world.mob_back: dict[str, int] = {}  # mob -> the round it returns
    world.mob_hits: dict[str, list[int]] = {m: [] for m in world.cat.mobs}  # blows since it last spawned
    world.kills: dict[str, int] = {}
    world.kills_own: dict[str, int] = {}


def alive(world: CraftingWorld, mob: str) -> bool:
    return world.mob_health[mob] > 0


def damage(a: CraftingAgent) -> int:
    return BASE_DAMAGE + max((WEAPONS.get(t, 0) for t in a.equipment), default=0)


class Attack(Act):
    """One exchange of blows; its parents are the move, the weapon and armor equips, and for the
    kill every earlier blow on this mob; the detail says what happened."""

    tool = "attack"
    mob: str

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        spec = world.cat.mobs.get(self.mob)
        if spec is None:
            return f"unknown mob {self.mob}"
        if spec.site != a.site:
            return f"{spec.mob_id} is at {spec.site}, not here"
        if a.skills.get("strength", 0) <= 0:
            return "needs skill strength"
        return "" if alive(world, spec.mob_id) else f"{spec.mob_id} is down"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        mob = self.mob
        spec = world.cat.mobs[mob]
        k = sorted(world.cat.mobs).index(mob)
        u = stream(world.seed, "combat", world.round, k, a.actor_id, world.action_index(a)).random(2)
        parents = [last_move(a)]
        parents += [rid_ for t, rid_ in a.equipment.items() if t in WEAPONS or t in ARMOR]
        dealt = damage(a) if u[0] < HIT_CHANCE else 0
        world.mob_health[mob] -= dealt
        if world.mob_health[mob] <= 0:
            parents += world.mob_hits[mob]
            world.mob_hits[mob] = []
            world.mob_health[mob] = 0
            world.kills[spec.kind] = world.kills.get(spec.kind, 0) + 1
            if a.actor_id not in world.run.mask_ids:
                world.kills_own[spec.kind] = world.kills_own.get(spec.kind, 0) + 1
            a.give(spec.loot, spec.loot_qty, rid)
            if spec.respawn:
                world.mob_back[mob] = world.round + spec.respawn
            return parents, f"killed {mob}, looted {spec.loot_qty} {spec.loot}"
        if dealt:
            world.mob_hits[mob].append(rid)
        armor = max((ARMOR.get(t, 0) for t in a.equipment), default=0)
        taken = max(0, spec.damage - armor) if u[1] < HIT_CHANCE else 0
        survival.hurt(world, a, taken)
        return parents, f"dealt {dealt}, took {taken}"


def see(world: CraftingWorld, a: CraftingAgent) -> None:
    """At the start of its turn an agent sees the mobs at its site (its memory of the others)."""
    for m in world.cat.mobs.values():
        if m.site == a.site:
            a.memory[m.mob_id] = world.mob_health[m.mob_id]


def respawn(world: CraftingWorld) -> None:
    for mob, back in list(world.mob_back.items()):
        if world.round + 1 >= back:
            world.mob_health[mob] = world.cat.mobs[mob].health
            del world.mob_back[mob]


def hunt(world: CraftingWorld, a: CraftingAgent, loot: str) -> dict[str, Any] | None:
    """The ordinary fighter's way to a loot goal: attack a living mob that drops it here (the
    weakest first), else walk to the nearest site where one stands; rest when too hurt to fight."""
    from mam_bench.models.crafting import exploration

    mobs = [m for m in world.cat.mobs.values() if m.loot == loot and exploration.visible(world, a, m.site)]
    if not mobs:
        return exploration.search(world, a, {m.site for m in world.cat.mobs.values() if m.loot == loot})
    if world.health[a.actor_id] <= min(m.damage for m in mobs) + 1:
        return None  # too hurt: the survival rule or a rest comes first
    here = sorted(
        (m for m in mobs if m.site == a.site and alive(world, m.mob_id)),
        key=lambda m: (world.mob_health[m.mob_id], m.mob_id),
    )
    if here:
        return {"tool": "attack", "mob": here[0].mob_id}
    weapon = [t for t in sorted(WEAPONS) if a.held(t) > 0 and t not in a.equipment]
    if weapon:
        return {"tool": "equip", "item": weapon[0]}
    sites = sorted({m.site for m in mobs if a.memory.get(m.mob_id, m.health) > 0})  # as last seen
    if not sites:
        return None  # every such mob was down when last seen: wait for one to return
    x, y = a.xy
    site = min(sites, key=lambda s: (max(abs(world.cat.sites[s][0] - x), abs(world.cat.sites[s][1] - y)), s))
    return world.move_toward(a, site) if site != a.site else None
