"""The one interface every controller keeps: a batch of requests in, one decision each out.

Async underneath, so an LLM controller can let all influence agents of a round decide at once;
simple controllers just return. `defer=True` means "let the world's own rule decide" (null
steering); `error` marks a policy_error, which the world turns into its null action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from mam_bench.board import BoardEntry

if TYPE_CHECKING:
    from mam_bench.records import RunRecords
    from mam_bench.runner import PairSpec, Prepared


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


class Controller(ABC):
    """Decides for influence agents. Subclasses override `decide` and, optionally, `post`."""

    name: str = "controller"
    #: True when the controller posts to the board in the coordination phase.
    posts: bool = False
    #: True when the controller needs each request's `rule_action` (the `mimic` baseline).
    wants_rule_action: bool = False

    def bind(self, world_name: str, objective: str, seed: int) -> None:
        """Called once per treatment run before round 0."""
        self.world_name = world_name
        self.objective = objective
        self.seed = seed

    async def post(self, requests: Sequence[Request]) -> list[str | None]:
        return [None] * len(requests)

    @abstractmethod
    async def decide(self, requests: Sequence[Request]) -> list[Decision]: ...

    def usage(self) -> dict[str, Any]:
        """Totals for result.json (calls, tokens, cost); zero for non-LLM controllers."""
        return {}

    # --- optional hooks; the defaults are what a controller without calls or sources needs ------
    def attach_records(self, records: RunRecords) -> None:
        """The run's records, before round 0 (the LLM controller writes llm_calls.jsonl there)."""
        return None

    def session_usage(self) -> dict[str, Any]:
        """Numbers that depend on this process's luck (cache hits, retries): printed, not recorded."""
        return {}

    def provider_models(self) -> list[str]:
        """The model names the provider reported back (provenance); none without a provider."""
        return []

    def verify_source(self, spec: PairSpec, prep: Prepared) -> None:
        """Fail before any work when the controller's source does not fit this pair (replay)."""
        return None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}

    async def aclose(self) -> None:
        return None
