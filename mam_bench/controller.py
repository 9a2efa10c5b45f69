"""The one interface every controller keeps: a batch of requests in, one decision each out.

Async underneath, so an LLM controller can let all influence agents of a round decide at once;
simple controllers just return. `defer=True` means "let the world's own rule decide" (null
steering); `error` marks a policy_error, which the world turns into its null action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mam_bench.protocol import Decision, Request

if TYPE_CHECKING:
    from mam_bench.records import RunRecords
    from mam_bench.world import SteerableWorld


class Controller(ABC):
    """Decides for influence agents. Subclasses override `decide` and, optionally, `post`."""

    name: str = "controller"
    #: True when the controller posts to the board in the coordination phase.
    posts: bool = False
    #: True when the controller needs each request's `rule_action` (the `mimic` baseline).
    wants_rule_action: bool = False
    #: True only for a named upper bound that plans on the live treatment world (the oracle): the
    #: runner calls `plan_round` at the start of every round. It still acts only through decisions.
    privileged: bool = False

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
    async def plan_round(self, world: SteerableWorld, horizon: int) -> None:
        """A privileged controller sees the treatment world at the start of each round (it must
        not change it: it plans on `fork(world)`); `horizon` is the round the treatment ends at."""
        return None

    def options_line(self) -> str | None:
        """The controller's options in one line, printed at the start of `mam-bench run`."""
        return None

    def cost_line(self, prep: Any) -> str | None:
        """What the run will cost, said before it starts (a planner's rollouts and time); None: nothing to say."""
        return None

    def attach_records(self, records: RunRecords) -> None:
        """The run's records, before round 0 (the LLM controller writes llm_calls.jsonl there)."""
        return None

    def session_usage(self) -> dict[str, Any]:
        """Numbers that depend on this process's luck (cache hits, retries): printed, not recorded."""
        return {}

    def provider_models(self) -> list[str]:
        """The model names the provider reported back (provenance); none without a provider."""
        return []

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}

    async def aclose(self) -> None:
        return None
