"""The contract every world keeps (see design.md).

A world is a `mesa.Model` with stable actor ids, named random streams, a round protocol whose
resolution phase takes the influence agents' decisions, an outcome with a direction per
objective, and an audit entry for every influence decision.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import mesa
from pydantic import BaseModel

from mam_bench.errors import ConfigError
from mam_bench.params import WorldParams
from mam_bench.protocol import FAILED_OUTCOMES, OK_OUTCOMES, AuditEntry, Decision  # noqa: F401 - the contract's names
from mam_bench.status import Status


class Observation(Protocol):
    """What `observe()` returns: a structured object that renders itself as compact text."""

    def to_text(self) -> str: ...


@runtime_checkable
class TextRoundTrip(Protocol):
    """An observation whose text parses back into the same structure (check_world compares them)."""

    def to_text(self) -> str: ...

    @classmethod
    def from_text(cls, text: str) -> Self: ...


def _metric(key: str) -> Any:
    return lambda model: model.metrics().get(key)


class SteerableWorld(mesa.Model):
    """Base class of every world. Subclasses fill in the class attributes and abstract methods."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    Params: ClassVar[type[WorldParams]]
    Action: ClassVar[type[BaseModel]]
    #: objective name -> direction on the primary metric (+1 raise it, -1 lower it)
    objectives: ClassVar[dict[str, int]]
    default_objective: ClassVar[str]
    primary_metric: ClassVar[str]
    secondary_metric: ClassVar[str | None] = None
    #: objective name -> the metric its lift is computed on, where that is not the primary one
    #: (an objective about inequality is scored on a Gini, not on task progress)
    objective_metrics: ClassVar[dict[str, str]] = {}
    #: further metrics reported beside the scored one in result.json's `outcomes` block
    outcome_metrics: ClassVar[tuple[str, ...]] = ()
    #: True when influence identities are left out of the outcome in both runs.
    masks_influence: ClassVar[bool] = False
    #: True when the treatment stops as soon as the world is done;
    #: False when it always plays its fixed horizon.
    treatment_stops_early: ClassVar[bool] = True
    #: influence agents when the user names neither a count nor ids and the params have no `influence`
    default_influence: ClassVar[int] = 2

    def __init__(
        self,
        params: WorldParams | None = None,
        seed: int = 0,
        *,
        influence_ids: Iterable[int] = (),
        mask_ids: Iterable[int] | None = None,
        role: str = "reference",
        **param_kwargs: Any,
    ):
        if params is None:
            params = self.Params.from_strings(param_kwargs) if param_kwargs else self.Params()
        elif param_kwargs:
            raise ConfigError("params", "give either a params object or keyword parameters")
        super().__init__(seed=int(seed))
        self.params = params
        self.seed = int(seed)
        self.round = 0
        self.status: str = Status.RUNNING
        self.influence_ids: tuple[int, ...] = tuple(sorted(int(i) for i in influence_ids))
        mask = self.influence_ids if mask_ids is None else tuple(sorted(int(i) for i in mask_ids))
        self.mask_ids: tuple[int, ...] = mask if self.masks_influence else ()
        self.audit: list[AuditEntry] = []
        #: "reference" (all rule, may stop at rest) or "treatment" (plays its horizon)
        self.role = role
        #: the steering objective influence agents are told (the runner sets the chosen one)
        self.objective = self.default_objective
        #: a world sets this False when a round attempt found nothing to do (no transition)
        self.transitioned = True
        #: the world's Mesa DataCollector; one over `metrics()` is made at the first round if it sets none
        self.datacollector: mesa.DataCollector | None = None
        self._setup_collected = False
        self._in_mesa_step = False  # inside Mesa's own step(), which counts `steps` itself

    @classmethod
    def metric_for(cls, objective: str) -> str:
        """The metric an objective's lift is computed on: its own if the world names one."""
        return cls.objective_metrics.get(objective, cls.primary_metric)

    # --- identities ---------------------------------------------------------------------------
    @abstractmethod
    def actor_ids(self) -> list[int]:
        """Every id that may be swapped for an influence agent."""

    @classmethod
    def influence_count(cls, params: WorldParams) -> int:
        """How many influence agents a run gets when the user gives neither a count nor ids."""
        n = params.influence_count()
        return cls.default_influence if n is None else n

    def default_influence_ids(self, n: int) -> list[int]:
        """The ids used when the user asks for `n` influence agents without naming them."""
        return sorted(self.actor_ids())[:n]

    # --- horizon ------------------------------------------------------------------------------
    @abstractmethod
    def treatment_rounds(self) -> int:
        """How many rounds the treatment plays."""

    def reference_cap(self) -> int:
        """The most rounds the reference plays before it is called exhausted."""
        return self.treatment_rounds()

    @property
    def done(self) -> bool:
        return self.status != Status.RUNNING

    # --- phases -------------------------------------------------------------------------------
    @abstractmethod
    def observe(self, actor_id: int) -> Observation:
        """The structured observation of one influence agent (it has `.to_text()`)."""

    @classmethod
    @abstractmethod
    def null_action(cls) -> dict[str, Any]:
        """The action a policy_error falls back to (stay / STAY / sleep); also the `stay` policy."""

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        """A uniformly random legal action for the `random` controller (override per world)."""
        raise NotImplementedError(f"{cls.__name__} has no random_action")

    @classmethod
    def has_rule_action(cls) -> bool:
        """True when the world says what its rule would do for one agent (what `mimic` plays)."""
        return cls.rule_action is not SteerableWorld.rule_action

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """The action the world's own rule would take for `actor_id` now (the `mimic` baseline).

        Computed from the start-of-round state and the actor's own addressed streams, so asking
        draws nothing that anybody else would see.
        """
        raise NotImplementedError(f"{type(self).__name__} has no rule_action, so `mimic` cannot run on it")

    @abstractmethod
    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry]:
        """Validate and resolve the influence actions, run the ordinary agents, settle."""

    def play_round(self, decisions: Mapping[int, Decision] | None = None) -> list[AuditEntry]:
        """One full round. Missing decisions for influence agents mean: follow the rule."""
        decisions = dict(decisions or {})
        for aid in self.influence_ids:
            decisions.setdefault(aid, Decision.follow_rule())
        self._collect_setup()
        self.transitioned = True
        return self._close_round(self.resolve_round(decisions))

    #: True when influence agents decide at their own turn, from an observation taken after the
    #: agents before them acted (AgentWorld's round-robin); the runner then calls
    #: `aplay_round_per_turn` instead of deciding for everyone from the start-of-round state.
    decides_per_turn: bool = False

    async def aresolve_round_per_turn(self, decide: Callable[[int], Awaitable[Decision]]) -> list[AuditEntry]:
        """Like resolve_round, but each influence agent's decision is asked for (`decide(id)`) at its turn."""
        raise NotImplementedError(f"{type(self).__name__} does not decide per turn")

    async def aplay_round_per_turn(self, decide: Callable[[int], Awaitable[Decision]]) -> list[AuditEntry]:
        """One full round in which every influence agent decides at its own turn."""
        self._collect_setup()
        self.transitioned = True
        return self._close_round(await self.aresolve_round_per_turn(decide))

    def _close_round(self, entries: list[AuditEntry]) -> list[AuditEntry]:
        self.audit.extend(entries)
        if self.transitioned:
            self.round += 1
            self.datacollector.collect(self)
            if not self._in_mesa_step:  # Mesa's own step() counts itself
                self.steps += 1
        return entries

    def _collect_setup(self) -> None:
        """Give every world a DataCollector (its metrics, if it has none) holding the setup state.

        Afterwards the DataCollector has one row for the setup plus one per round played.
        """
        if self._setup_collected:
            return
        self._setup_collected = True
        if self.datacollector is None:
            keys = list(self.metrics())
            self.datacollector = mesa.DataCollector(model_reporters={k: _metric(k) for k in keys})
        if not any(self.datacollector.model_vars.values()):
            self.datacollector.collect(self)

    def step(self) -> None:
        """Mesa's step: one round with every influence agent following the rule."""
        self._in_mesa_step = True
        try:
            self.play_round()
        finally:
            self._in_mesa_step = False
        self.running = not self.done and self.round < self.reference_cap()

    # --- outcome ------------------------------------------------------------------------------
    @abstractmethod
    def metrics(self) -> dict[str, float]:
        """Metric name -> value; the primary metric is among them (masked where the world masks)."""

    async def ajudge(self, out: Any = None) -> dict[str, Any]:
        """Outcomes judged after the run (an LLM judge, say), reported beside the metrics; `out` is
        the run directory for the judge's cache (None: no cache). Default: nothing to judge."""
        return {}

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """Positions and state for the per-round JSONL records (enough to redraw the world)."""

    def facts(self, entries: list[AuditEntry]) -> list[str]:
        """Authoritative board lines after resolution; worlds may override for compact text."""
        parts = [f"{e.actor_id}:{e.outcome}" for e in entries]
        name = self.metric_for(self.objective)
        metric = self.metrics().get(name)
        line = " ".join(parts)
        if metric is not None:
            line += f" | {name}={metric:.4f}"
        return [line] if line else []

    @classmethod
    def parse_answer(cls, text: str) -> dict[str, Any] | None:
        """A world's own reading of a free-text answer (SwarmBench's `ACTION:` lines, crafting's
        tool calls). None: the world has none, and the generic JSON reading applies alone."""
        return None

    # --- optional capabilities, declared in the world's registration ---------------------------
    @classmethod
    def reference_outcome(cls, params: WorldParams, seed: int, max_rounds: int | None = None) -> dict[str, Any]:
        """The all-rule outcome of one (params, seed), fast (`landscape` in the registration)."""
        raise ConfigError("world", f"{cls.name} has no reference landscape")

    @classmethod
    def list_tasks(cls) -> list[tuple[str, str]]:
        """(name, description) of each task file (`tasks=True` in the registration)."""
        raise ConfigError("world", f"{cls.name} has no tasks")

    def declared_action(self, actor_id: int, text: str) -> dict[str, Any] | None:
        """The action an actor's own post declares for itself, if the world can read one."""
        return None

    def same_action(self, declared: dict[str, Any], proposal: Any) -> bool:
        return declared == proposal

    # --- validation of experiment settings ------------------------------------------------------
    def check_influence(self, ids: Iterable[int]) -> tuple[int, ...]:
        ids = tuple(int(i) for i in ids)
        known = set(self.actor_ids())
        if len(set(ids)) != len(ids):
            raise ConfigError("influence_ids", "an id is listed twice")
        if len(ids) > len(known):
            raise ConfigError("influence", f"{len(ids)} influence agents but only {len(known)} agents")
        missing = [i for i in ids if i not in known]
        if missing:
            raise ConfigError("influence_ids", f"no agent with id {missing[0]} in {self.name}")
        return tuple(sorted(ids))
