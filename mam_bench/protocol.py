"""The round protocol, at the bottom of the core: what a controller is asked (`Request`), what it
answers (`Decision`), and what the world made of it (`AuditEntry`). World, controller and runner
sides all import it; it imports nothing of theirs, so the core has no import loop."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from mam_bench.board import BoardEntry

#: Outcomes that are not failures; everything else counts as failed in the audit identity.
OK_OUTCOMES = ("accepted", "stay")
FAILED_OUTCOMES = ("occupied", "collision", "out_of_bounds", "blocked", "invalid", "policy_error")


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True)

    action: dict[str, Any] | None = None
    message: str | None = None
    defer: bool = False
    error: str | None = None
    raw: str | None = None

    @classmethod
    def follow_rule(cls) -> Decision:
        return cls(defer=True)

    @classmethod
    def policy_error(cls, reason: str, raw: str | None = None) -> Decision:
        return cls(error=reason, raw=raw)


@dataclass(frozen=True)
class Request:
    """Everything one influence agent may use for one decision."""

    world: str
    actor_id: int
    round: int
    objective: str
    observation: Any  # the world's structured observation (has .to_text())
    board: tuple[BoardEntry, ...] = ()
    phase: str = "decision"
    history: tuple[dict[str, Any], ...] = ()
    #: what the world's rule would do now; filled only for controllers that set `wants_rule_action`
    rule_action: dict[str, Any] | None = None


@dataclass(frozen=True)
class AuditEntry:
    """One influence decision and what the world made of it."""

    round: int
    actor_id: int
    #: the action as the world read it (the null action after a controller error)
    action: Any
    outcome: str
    detail: str = ""
    deferred: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)
