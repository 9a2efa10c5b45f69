"""Production: harvesting a node, crafting at a station, equipping a tool (the economy's own work).

A harvest yields 0, 1 or 2 units by the `yields` chances, from a world stream keyed by round, node,
the harvesting agent and its action this round, so nobody else's actions move its draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mam_bench.models.crafting.act import Act, Effect, last_move
from mam_bench.models.crafting.catalog import meets
from mam_bench.models.crafting.combat import ARMOR, WEAPONS
from mam_bench.streams import stream

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld


def harvest_yield(world: CraftingWorld, node_id: str, a: CraftingAgent) -> int:
    k = world.cat.node_order.index(node_id)
    u = float(stream(world.seed, "yield", world.round, k, a.actor_id, world.action_index(a)).random())
    p0, p1, _ = world.params.yields
    return 0 if u < p0 else 1 if u < p0 + p1 else 2


class Harvest(Act):
    tool = "harvest"
    node: str

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        spec = world.cat.nodes.get(self.node)
        if spec is None:
            return f"unknown node {self.node}"
        if spec.site != a.site:
            return f"{spec.node_id} is at {spec.site}, not here"
        if a.skills.get(spec.skill, 0) <= 0:
            return f"needs skill {spec.skill}"
        if not meets(a.skills, spec.skill, spec.level):
            return f"needs {spec.skill} level {spec.level} (has {a.skills[spec.skill]})"
        if spec.tool and spec.tool not in a.equipment:
            return f"needs {spec.tool} equipped"
        return "" if world.stock[spec.node_id] > 0 else f"{spec.node_id} is depleted"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        spec = world.cat.nodes[self.node]
        got = min(harvest_yield(world, spec.node_id, a), world.stock[spec.node_id])
        world.stock[spec.node_id] -= got
        a.memory[spec.node_id] = world.stock[spec.node_id]
        if got:
            a.give(spec.resource, got, rid)
            world.harvested[spec.resource] = world.harvested.get(spec.resource, 0) + got
            if a.actor_id not in world.run.mask_ids:
                world.harvested_own[spec.resource] = world.harvested_own.get(spec.resource, 0) + got
        return [last_move(a), a.equipment.get(spec.tool, -1) if spec.tool else -1], ""


class Craft(Act):
    tool = "craft"
    item: str
    skill: str | None = None

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        cat = world.cat
        r = cat.recipes.get(self.item)
        if r is None:
            return f"no recipe for {self.item}"
        if self.skill not in (None, r.skill):
            return f"{r.output} needs skill {r.skill}"
        if a.skills.get(r.skill, 0) <= 0:
            return f"needs skill {r.skill}"
        if not meets(a.skills, r.skill, r.level):
            return f"{r.output} needs {r.skill} level {r.level} (has {a.skills[r.skill]})"
        if cat.stations[r.station] != a.site:
            return f"needs the {r.station} at {cat.stations[r.station]}"
        missing = [f"{k} {i}" for i, k in r.inputs.items() if a.held(i) < k]
        return f"missing {', '.join(missing)}" if missing else ""

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        """The inputs' provenance is the craft's parents; own intermediates used up count as delivered."""
        r = world.cat.recipes[self.item]
        parents: list[int] = []
        for inp, k in r.inputs.items():
            parents += a.take(inp, k)
            for o in a.obligations:
                if o.to == a.actor_id and o.item == inp and o.outstanding > 0:
                    used = min(k, o.outstanding)
                    o.delivered += used
                    k -= used
        a.give(r.output, r.qty, rid)
        world.crafted[r.output] = world.crafted.get(r.output, 0) + r.qty
        if a.actor_id not in world.run.mask_ids:
            world.crafted_own[r.output] = world.crafted_own.get(r.output, 0) + r.qty
        return [*parents, last_move(a)], ""


class Equip(Act):
    tool = "equip"
    item: str

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        item = self.item
        if world.cat.items.get(item) != "tool" and item not in WEAPONS and item not in ARMOR:
            return f"{item} is not a tool"
        return "" if a.held(item) > 0 else f"holds no {item}"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        parents = a.take(self.item, 1)
        a.equipment[self.item] = rid
        return parents, ""
