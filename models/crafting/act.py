"""The base of a typed action: one frozen model per tool that knows when it can happen and what it
does at its agent's turn, so that the world's `execute` dispatches from a table (`action_table.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.agents import CraftingAgent
    from mam_bench.models.crafting.model import CraftingWorld

#: what an action's effect returns: the ids of the actions it causally depends on, and a detail
Effect = tuple[list[int], str]


class Act(BaseModel):
    """One validated tool call; its fields are the tool's arguments (the action dict minus `tool`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool: ClassVar[str]
    #: a downed agent (health 0) may still do this (eat)
    when_down: ClassVar[bool] = False

    def precondition(self, world: CraftingWorld, a: CraftingAgent) -> str:
        """Why it cannot happen now ('' when it can)."""
        return ""

    def apply(self, world: CraftingWorld, a: CraftingAgent, rid: int) -> Effect:
        """Change the world as this action (logged under `rid`) does."""
        raise NotImplementedError


def last_move(a: CraftingAgent) -> int:
    """The id of the agent's last move (-1: it has not moved), a parent of what it does where it stands."""
    return -1 if a.last_move is None else a.last_move
