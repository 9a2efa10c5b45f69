"""The table of typed actions: tool name -> its frozen model (which checks and applies it). The
world's `execute` looks an action up here; every tool of the schema (`actions.TOOLS`) has a row."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting import survival
from mam_bench.models.crafting.act import Act
from mam_bench.models.crafting.agentworld.tools import AGENTWORLD_ACTIONS, AGENTWORLD_TOOLS
from mam_bench.models.crafting.combat import Attack
from mam_bench.models.crafting.conditions import COMMUNICATION_TOOLS, DISCUSSION_TOOLS, cuts_communication, has
from mam_bench.models.crafting.exchange import Chat, Request, Transfer
from mam_bench.models.crafting.exploration import Explore, MoveTo
from mam_bench.models.crafting.production import Craft, Equip, Harvest
from mam_bench.models.crafting.survival import Eat, Sleep
from mam_bench.models.crafting.trading import AcceptTrade, OfferTrade

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

ACTIONS: dict[str, type[Act]] = {
    act.tool: act
    for act in (
        MoveTo,
        Harvest,
        Craft,
        Transfer,
        Chat,
        Request,
        Equip,
        Sleep,
        Attack,
        Eat,
        Explore,
        OfferTrade,
        AcceptTrade,
        *AGENTWORLD_ACTIONS,
    )
}


def typed(action: dict[str, Any]) -> Act:
    """The typed form of an action dict (a rule's, or one `actions.validate_action` accepted)."""
    return ACTIONS[action["tool"]](**{k: v for k, v in action.items() if k != "tool" and v is not None})


def precondition(world: CraftingWorld, a: CraftingAgent, act: Act) -> str:
    """Why an action cannot happen now ('' when it can): the condition's cut of communication and
    a downed agent (who may only eat) come before the tool's own check; AgentWorld's own tools
    exist only in its tasks."""
    if act.tool in AGENTWORLD_TOOLS and not world.task.from_agentworld:
        return f"{act.tool} is one of AgentWorld's tools, offered only in its tasks"
    condition = world.condition_now
    if has(condition, "discussion") and act.tool not in DISCUSSION_TOOLS:
        return f"{act.tool} is unavailable: discussion rounds (only chat until round {world.params.discussion_rounds})"
    if act.tool in COMMUNICATION_TOOLS and cuts_communication(condition):
        return f"{act.tool} is unavailable: no communication under condition {condition}"
    if not act.when_down and survival.down(world, a):
        return "down (health 0): only eat"
    return act.precondition(world, a)
