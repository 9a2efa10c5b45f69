"""What a world may offer beyond the required contract, each as a runtime-checkable Protocol.

A world has a capability when it defines the names (`isinstance(world_or_class, RuleActions)`);
nothing is declared twice and the base class holds no stub that raises. This is the one way the
core, the controllers and the dashboards ask what a world can do.

Capabilities of the action space take an observation, never the world: they are classmethods of
the world's `Action` model (`isinstance(world.Action, RandomActions)`), so they add no name to
the world. `null_action(world.Action)` is the one action every world has.
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
    """A uniformly random legal action (a classmethod of the Action), for the `random` controller."""

    def random_action(self, observation: Any, rng: Any) -> dict[str, Any]: ...


@runtime_checkable
class PerTurnDecisions(Protocol):
    """Influence agents may decide at their own turn, from an observation taken after the agents
    before them acted (AgentWorld's round-robin): the round asks each decision at that turn instead
    of all of them from the start-of-round state, unless the world's Params say otherwise (a
    `decides_per_turn` property false for this run; see `per_turn`)."""

    async def aresolve_round_per_turn(self, decide: Callable[[int], Awaitable[Decision]]) -> list[AuditEntry]: ...


@runtime_checkable
class ReferenceLandscape(Protocol):
    """The all-rule outcome of one (params, seed), fast (`mam-bench landscape`): the registration's
    `landscape_kernel` object, with `Params` beside it (it need not import the world)."""

    def reference_outcome(self, params: WorldParams, seed: int, max_rounds: int | None = None) -> dict[str, Any]: ...


@runtime_checkable
class Tasks(Protocol):
    """Named task files (`mam-bench tasks WORLD`): (name, description) of each, and the check of a
    user's own task file (`--check FILE`: what it holds, or a ConfigError), both classmethods of
    the world's `Params`."""

    def list_tasks(self) -> list[tuple[str, str]]: ...

    def check_task(self, path: str) -> str: ...


@runtime_checkable
class InputFiles(Protocol):
    """Files a run reads beyond its parameters (a user's task file, its verifier), each with its
    sha256 (a method of the world's `Params`): recorded in spec.json, and a resume refuses a run
    whose files changed."""

    def input_files(self) -> dict[str, str]: ...


@runtime_checkable
class AnswerReading(Protocol):
    """The world reads a free-text answer its own way (`ACTION:` lines, tool
    calls), a classmethod of the Action; the LLM prompts try it when the answer holds no JSON action.
    None: nothing readable."""

    def parse_answer(self, text: str) -> dict[str, Any] | None: ...


@runtime_checkable
class LegalActions(Protocol):
    """The world says whether an action that fits the schema is legal against the start-of-round
    observation (a classmethod of the Action; None: legal, else why not); the LLM prompts ask for a repair."""

    def legal_error(self, observation: Any, action: dict[str, Any]) -> str | None: ...


@runtime_checkable
class ActionMenu(Protocol):
    """Every legal action of one request, listed from its start-of-round observation (a
    classmethod of the Action), the world's null action first: the LLM prompts constrain an answer to exactly
    these, or number them as a menu (a capped menu keeps the null action)."""

    def legal_actions(self, observation: Any) -> list[dict[str, Any]]: ...


@runtime_checkable
class ActingNow(Protocol):
    """The world says whether an influence agent can act this round (a jailed citizen cannot), a
    classmethod of the Action; one that cannot only communicates, and its action is the world's null action."""

    def can_act(self, observation: Any) -> bool: ...


@runtime_checkable
class DeclaredActions(Protocol):
    """The world reads the action an actor's own board post declares for itself (the pilot's
    'ID -> r,c'), a classmethod of the Action; the runner counts posts whose declared action is not the one taken."""

    def declared_action(self, actor_id: int, text: str) -> dict[str, Any] | None: ...


@runtime_checkable
class HorizonBasin(Protocol):
    """A world that plays its fixed horizon says where the treatment stands there, as if every agent
    were back on the rule: at rest (`equilibrium`, `blocked`) or still `moving`. The runner records it
    as the treatment's status, so flips between basins are counted by the tool."""

    def horizon_status(self) -> str: ...


@runtime_checkable
class MemoryEstimate(Protocol):
    """What a run of these parameters needs in memory, and the parameter that drives it (a method
    of the world's `Params`): a run that would not fit is refused before anything is built or written."""

    def memory_needed(self) -> tuple[str, int]: ...


#: the capabilities of the action space: classmethods of the world's `Action`, never world names
ON_ACTION: tuple[type, ...] = (RandomActions, AnswerReading, LegalActions, ActionMenu, ActingNow, DeclaredActions)
#: the capabilities of the parameters: methods of the world's `Params`, never world names
ON_PARAMS: tuple[type, ...] = (Tasks, InputFiles, MemoryEstimate)
#: the capabilities a world (its class) defines itself: each member is a name on the world
ON_WORLD: tuple[type, ...] = (RuleActions, PerTurnDecisions, HorizonBasin)


def per_turn(world: Any) -> bool:
    """Whether this run's influence agents decide at their own turn: the world can (`PerTurnDecisions`)
    and its Params do not turn it off (`decides_per_turn`, where they have one)."""
    return isinstance(world, PerTurnDecisions) and bool(getattr(world.params, "decides_per_turn", True))


def members(protocol: type) -> list[str]:
    """The names a capability consists of, in its declaration's order."""
    own = [*vars(protocol).get("__annotations__", {}), *vars(protocol)]
    return list(dict.fromkeys(n for n in own if not n.startswith("_") and n not in ("copy_with",)))


def offered(world_cls: Any, landscape: Any = None) -> list[str]:
    """The optional capabilities a world has (`check_world` lists them): its own, its Action's, its
    Params', and `ReferenceLandscape` where its registration names a landscape kernel (`landscape`)."""
    return [
        *(c.__name__ for c in ON_WORLD if isinstance(world_cls, c)),
        *(c.__name__ for c in ON_ACTION if isinstance(world_cls.Action, c)),
        *(c.__name__ for c in ON_PARAMS if isinstance(world_cls.Params, c)),
        *(["ReferenceLandscape"] if isinstance(landscape, ReferenceLandscape) else []),
    ]


def misplaced(world_cls: Any) -> list[str]:
    """Names of the action space or the parameters a world defines on itself, where no one asks for
    them (they belong on its Action or its Params): `check_world` reports each rather than ignore it."""
    hooks = [n for c in (*ON_ACTION, *ON_PARAMS, ReferenceLandscape) for n in members(c)]
    return [n for n in (*hooks, *SCORING_SETTINGS) if hasattr(world_cls, n)]


#: settings that are the world's `Scoring`'s, never names on the world
SCORING_SETTINGS = ("treatment_stops_early", "default_influence", "metric_for")


def null_action(action: type[Any]) -> dict[str, Any]:
    """The action a failed decision falls back to (stay, `STAY`, sleep), also what `stay` plays:
    the Action's own `null_action()` classmethod where it declares one, else its schema defaults."""
    own = getattr(action, "null_action", None)
    return dict(own()) if callable(own) else action().model_dump()
