"""What a world may offer beyond the required contract, each as a runtime-checkable Protocol.

A world has a capability when it defines the names (`isinstance(world_or_class, RuleActions)`);
nothing is declared twice and the base class holds no stub that raises. This is the one way the
core, the controllers and the dashboards ask what a world can do.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # annotations only: asking for a capability imports nothing heavy
    from mam_bench.params import WorldParams
    from mam_bench.protocol import AuditEntry, Decision


@runtime_checkable
class RuleActions(Protocol):
    """The world says what its rule would do for one agent now (what `mimic` plays).

    Computed from the start-of-round state and the actor's own addressed streams, so asking draws
    nothing that anybody else would see."""

    def rule_action(self, actor_id: int) -> dict[str, Any]: ...


@runtime_checkable
class RandomActions(Protocol):
    """A uniformly random legal action (a classmethod), for the `random` controller."""

    def random_action(self, observation: Any, rng: Any) -> dict[str, Any]: ...


@runtime_checkable
class PerTurnDecisions(Protocol):
    """Influence agents may decide at their own turn, from an observation taken after the agents
    before them acted (AgentWorld's round-robin): when `decides_per_turn` is true the runner asks
    each decision at that turn instead of all of them from the start-of-round state."""

    decides_per_turn: bool

    async def aresolve_round_per_turn(self, decide: Callable[[int], Awaitable[Decision]]) -> list[AuditEntry]: ...


@runtime_checkable
class ReferenceLandscape(Protocol):
    """The all-rule outcome of one (params, seed), fast (`mam-bench landscape`); a classmethod or
    a registered `landscape_kernel` object with `Params` beside it."""

    def reference_outcome(self, params: WorldParams, seed: int, max_rounds: int | None = None) -> dict[str, Any]: ...


@runtime_checkable
class Tasks(Protocol):
    """Named task files (`mam-bench tasks WORLD`): (name, description) of each, and the check of a
    user's own task file (`--check FILE`: what it holds, or a ConfigError), both classmethods."""

    def list_tasks(self) -> list[tuple[str, str]]: ...

    def check_task(self, path: str) -> str: ...


@runtime_checkable
class InputFiles(Protocol):
    """Files a world reads beyond its parameters (a user's task file, its verifier), each with its
    sha256 (a classmethod): recorded in spec.json, and a resume refuses a run whose files changed."""

    def input_files(self, params: WorldParams) -> dict[str, str]: ...


@runtime_checkable
class AnswerReading(Protocol):
    """The world reads a free-text answer its own way (`ACTION:` lines, tool
    calls), a classmethod; the LLM prompts try it when the answer holds no JSON action.
    None: nothing readable."""

    def parse_answer(self, text: str) -> dict[str, Any] | None: ...


@runtime_checkable
class LegalActions(Protocol):
    """The world says whether an action that fits the schema is legal against the start-of-round
    observation (a classmethod; None: legal, else why not); the LLM prompts ask for a repair."""

    def legal_error(self, observation: Any, action: dict[str, Any]) -> str | None: ...


@runtime_checkable
class ActionMenu(Protocol):
    """Every legal action of one request, listed from its start-of-round observation (a
    classmethod), the world's null action first: the LLM prompts constrain an answer to exactly
    these, or number them as a menu (a capped menu keeps the null action)."""

    def legal_actions(self, observation: Any) -> list[dict[str, Any]]: ...


@runtime_checkable
class ActingNow(Protocol):
    """The world says whether an influence agent can act this round (a jailed citizen cannot), a
    classmethod; one that cannot only communicates, and its action is the world's null action."""

    def can_act(self, observation: Any) -> bool: ...


@runtime_checkable
class DeclaredActions(Protocol):
    """The world reads the action an actor's own board post declares for itself (the pilot's
    'ID -> r,c'); the runner counts posts whose declared action is not the one taken."""

    def declared_action(self, actor_id: int, text: str) -> dict[str, Any] | None: ...


@runtime_checkable
class HorizonBasin(Protocol):
    """A world that plays its fixed horizon says where the treatment stands there, as if every agent
    were back on the rule: at rest (`equilibrium`, `blocked`) or still `moving`. The runner records it
    as the treatment's status, so flips between basins are counted by the tool."""

    def horizon_status(self) -> str: ...


@runtime_checkable
class Judged(Protocol):
    """Outcomes judged after the run (an LLM judge, say), reported beside the metrics; `out` is the
    run directory for the judge's cache (None: no cache)."""

    async def ajudge(self, out: Any = None) -> dict[str, Any]: ...


@runtime_checkable
class SnapshotColumns(Protocol):
    """The snapshot with its per-agent lists as numpy arrays (same keys, same order, `tolist()`
    of each equal to the list `snapshot()` gives): the records write them without building a list
    of a million Python numbers every round."""

    def snapshot_columns(self) -> dict[str, Any]: ...


@runtime_checkable
class MemoryEstimate(Protocol):
    """What a run of these parameters needs in memory, and the parameter that drives it (a
    classmethod): a run that would not fit is refused before anything is built or written."""

    def memory_needed(self, params: WorldParams) -> tuple[str, int]: ...
