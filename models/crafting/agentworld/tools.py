"""The tools AgentWorld's agents have beside the economy's, offered only in AgentWorld's tasks
(its `agents/tool_definitions.py`): `observe_environment` and `verify_inventory` spend the turn
and answer in the action's detail; `complete` takes the agent offline for the rest of the
episode ("after triggering this function, you will be offline").

Not here: `pickup_resource` / `pickup_ground_item`. Upstream's `attack_entity` and
`harvest_resource` collect their drops themselves, as ours do, so the ground holds only what
`discard_item` drops, and that tool is not part of this world.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mam_bench.models.crafting.act import Act, Effect

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld


class Observe(Act):
    """What is at the agent's site now: nodes with stock, mobs with health, agents here."""

    tool = "observe"

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        nodes = [f"{n.node_id}:{world.stock[n.node_id]}" for n in world.cat.nodes.values() if n.site == a.site]
        mobs = [f"{m}:{world.mob_health[m]}" for m, spec in world.cat.mobs.items() if spec.site == a.site]
        here = [b.username for b in world.actors if b is not a and a.site and b.site == a.site]
        where = a.site or "on the way"
        listed = [" ".join(names) or "-" for names in (nodes, mobs, here)]
        return [], "at {}; nodes {}; mobs {}; agents {}".format(where, *listed)


class VerifyInventory(Act):
    """Which of the named items the agent holds (AgentWorld's `required_items`), and how many."""

    tool = "verify_inventory"
    items: tuple[str, ...]

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        held = [f"{i} x{a.held(i)}" for i in self.items if a.held(i) > 0]
        missing = [i for i in self.items if a.held(i) <= 0]
        return [], f"holds {', '.join(held) or 'none of them'}; missing {', '.join(missing) or 'nothing'}"


class Complete(Act):
    """The agent is done: it takes no further turn in this episode."""

    tool = "complete"
    message: str = "Task completed."

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        a.offline = True
        return [], self.message


#: the tools only AgentWorld's tasks offer
AGENTWORLD_ACTIONS: tuple[type[Act], ...] = (Observe, VerifyInventory, Complete)
AGENTWORLD_TOOLS = frozenset(act.tool for act in AGENTWORLD_ACTIONS)
