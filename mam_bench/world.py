"""The contract every world keeps (docs/world-contract.md).

A world is a `mesa.Model` with stable actor ids, named random streams, a round protocol whose
resolution phase takes the influence agents' decisions, an outcome with a direction per
objective, and an audit entry for every influence decision.
"""

from __future__ import annotations

import copy
import random as pyrandom
import sys
from abc import abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

import mesa
from mesa.discrete_space import DiscreteSpace
from pydantic import BaseModel

from mam_bench import model_ids
from mam_bench.capabilities import per_turn
from mam_bench.errors import ConfigError
from mam_bench.params import WorldParams
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.space_copy import prepare_space_copy
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


#: what every world must define (the guide's table lists them; everything else has a default on
#: the base class or is an optional capability in `mam_bench.capabilities`)
REQUIRED = (
    "name",
    "Params",
    "Action",
    "scoring",
    "actor_ids",
    "observe",
    "resolve_round",
    "metrics",
)


class SteerableWorld(mesa.Model):
    """Base class of every world: define the names in `REQUIRED`; the rest has defaults."""

    # --- required -------------------------------------------------------------------------------
    name: ClassVar[str]
    Params: ClassVar[type[WorldParams]]
    Action: ClassVar[type[BaseModel]]
    #: the outcome: metric, direction per objective, masking (mam_bench.scoring.Scoring)
    scoring: ClassVar[Scoring]

    # --- defaults ------------------------------------------------------------------------------
    #: whether an agent that plays the rule's answer it was asked this round keeps something the
    #: asking left (crafting: what its rule would have remembered). Where it may, a planner's
    #: rollouts ask the rule wherever the runner asks the live agents; a world that sets False
    #: is held to it by `check_world` and spares its rollouts the asking.
    rule_answer_kept: ClassVar[bool] = True

    def __init__(
        self,
        params: WorldParams | None = None,
        seed: int = 0,
        *,
        influence_ids: Iterable[int] = (),
        mask_ids: Iterable[int] | Callable[[SteerableWorld], Iterable[int]] | None = None,
        role: str = "reference",
        **param_kwargs: Any,
    ):
        if params is None:
            params = self.Params.from_strings(param_kwargs) if param_kwargs else self.Params()
        elif param_kwargs:
            raise ConfigError("params", "give either a params object or keyword parameters")
        super().__init__(seed=int(seed))
        model_ids.adopt(self)
        self.params = params
        self.seed = int(seed)
        self.round = 0
        ids = tuple(sorted(int(i) for i in influence_ids))
        #: a callable mask is chosen by the world itself on first read (the runner's reference
        #: picks and masks its own influence agents, so it needs no probe built before it)
        mask = ids if mask_ids is None else mask_ids
        masked = mask if callable(mask) and self.scoring.masks_influence else self._masked(mask)
        #: what the framework sets for this run: role, objective, influence and masked ids, audit
        self.run = RunState(self, role, self.scoring.default_objective, ids, masked)
        #: the world's Mesa DataCollector; one over `metrics()` is made at the first round if it sets none
        self.datacollector: mesa.DataCollector | None = None
        self._setup_collected = False
        self._setup_checked = False

    def _masked(self, ids: Any) -> tuple[int, ...]:
        return tuple(sorted(int(i) for i in ids)) if self.scoring.masks_influence and not callable(ids) else ()

    # --- identities ---------------------------------------------------------------------------
    @abstractmethod
    def actor_ids(self) -> list[int]:
        """Every id that may be swapped for an influence agent."""

    @classmethod
    def _influence_count(cls, params: WorldParams) -> int:
        """How many influence agents a run gets when the user gives neither a count nor ids."""
        n = params.influence_count()
        return cls.scoring.default_influence if n is None else n

    def _default_influence_ids(self, n: int) -> list[int]:
        """The ids used when the user asks for `n` influence agents without naming them."""
        return sorted(self.actor_ids())[:n]

    # --- horizon ------------------------------------------------------------------------------
    def horizon(self) -> int:
        """How many rounds the treatment plays: the params' `rounds` (override where it differs)."""
        rounds = getattr(self.params, "rounds", None)
        if rounds is None:
            raise NotImplementedError(f"{type(self).__name__}: give Params a `rounds` field or override horizon()")
        return int(rounds)

    def _reference_cap(self) -> int:
        """The most rounds the reference plays before it is called exhausted."""
        return self.horizon()

    @property
    def _done(self) -> bool:
        """The run has stopped (its stopping rule, or the runner's horizon). A run that stops at its
        rule asks it once before its first round too: a world at rest at setup plays none."""
        if self.round == 0 and not self._setup_checked:
            self._setup_checked = True
            self._stop_if_at_rule()
        return self.run.status != Status.RUNNING

    def stopping_rule(self) -> str | None:
        """The world's own stop, as the status the run ends with (None: play on): the only way a
        world stops. The core asks it before the first round and after every round of a run that
        stops there (`_stops_at_rule`); a world declares its rule and never sets `status` itself."""
        return None

    # --- phases -------------------------------------------------------------------------------
    @abstractmethod
    def observe(self, actor_id: int) -> Observation:
        """The structured observation of one influence agent (it has `.to_text()`)."""

    @abstractmethod
    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry]:
        """Validate and resolve the influence actions, run the ordinary agents, settle (called by
        `aplay_round` only; missing decisions follow the rule)."""

    async def aplay_round(self, decide: Decide | None = None) -> list[AuditEntry]:
        """One full round: the one way a round is played (runner, planners, `check_world`, dashboards).

        `decide(ids)` answers one decision per id: it is called once with every influence agent,
        from the start-of-round state, or, in a world that decides per turn (`PerTurnDecisions`),
        once per agent at its own turn. None: every influence agent follows the rule. Returns the
        round's audit entries; none for a run that was at rest at setup (it plays no round)."""
        self._collect_setup()
        if self.round == 0 and self._done:
            return []
        ask = decide or _follow_rule
        if per_turn(self):

            async def at_turn(aid: int) -> Decision:
                return (await ask([aid]))[0]

            entries = await self.aresolve_round_per_turn(at_turn)
        else:
            ids = list(self.run.influence_ids)
            entries = self.resolve_round(dict(zip(ids, await ask(ids))) if ids else {})
        return self._close_round(entries)

    def _close_round(self, entries: list[AuditEntry]) -> list[AuditEntry]:
        self.run.audit.extend(entries)
        self.round += 1
        self._stop_if_at_rule()
        self.datacollector.collect(self)
        # Mesa's step() has counted this call already; a round played directly (the runner's) is
        # counted here, so `steps` never falls behind the rounds played
        self.steps = max(self.steps, self.round)
        return entries

    @property
    def _stops_at_rule(self) -> bool:
        """Whether `stopping_rule()` ends this run: the reference's, a treatment's where
        `scoring.treatment_stops_early`, and one being settled; a treatment that plays its fixed horizon
        is never stopped (the runner records where it stands at the horizon)."""
        return self.run.role != "treatment" or self.scoring.treatment_stops_early

    def _stop_if_at_rule(self) -> None:
        if self.run.status == Status.RUNNING and self._stops_at_rule and (stop := self.stopping_rule()) is not None:
            self.run.status = stop

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
        play_round(self)
        self.running = not self._done and self.round < self._reference_cap()

    # --- planning -----------------------------------------------------------------------------
    def _fork(self) -> Self:
        """`fork(world)`'s copy: deep, its Mesa spaces cell by cell (`space_copy`). A world
        specialises `_fork_memo` (what the copy may share) or `_forked` (what it must rebuild), or
        this method itself where a copy of its own is cheaper."""
        memo = self._fork_memo()
        fills = [prepare_space_copy(space, memo) for space in _spaces(self) if id(space) not in memo]
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, FORK_RECURSION))  # linked agents, cells and graphs nest deep
        try:
            twin = copy.deepcopy(self, memo)
            for fill in fills:
                fill()
        finally:
            sys.setrecursionlimit(limit)
        for original in (self, *vars(self).values()):  # Mesa numbers new agents per model
            if isinstance(original, mesa.Model) and id(original) in memo:
                mesa.Agent._ids[memo[id(original)]] = copy.copy(mesa.Agent._ids[original])
                model_ids.adopt(memo[id(original)])
        twin._forked(self)
        return twin

    def _fork_memo(self) -> dict[int, Any]:
        """What a fork shares with its world instead of copying: the frozen params, the audit's
        entries (frozen) in a list of its own, and no records (its DataCollector collects nothing)."""
        memo: dict[int, Any] = {id(self.params): self.params, id(self.run.audit): list(self.run.audit)}
        if self.datacollector is not None:  # a memo entry for None would replace every None
            memo[id(self.datacollector)] = RECORDS_OFF
        for model in _models(self):  # its Random by state, not its 625 words one by one
            memo[id(model.random)] = _copy_random(model.random, memo)
        return memo

    def _forked(self, original: SteerableWorld) -> None:
        """Called on the fork after the copy; rebuild here what a deep copy cannot carry over."""
        self._setup_collected = True  # records are off: no setup row to collect
        if self.datacollector is None:  # forked before its first round
            self.datacollector = RECORDS_OFF

    # --- outcome ------------------------------------------------------------------------------
    @abstractmethod
    def metrics(self) -> dict[str, float]:
        """Metric name -> value; the primary metric is among them (masked where the world masks)."""

    def snapshot(self) -> dict[str, Any]:
        """Positions and state for the per-round records (enough to redraw the world); none by
        default (the records still hold every round's metrics and status). A per-agent column may be
        a 1-D numpy array (the records write it as it is; `mam_bench.snapshots.as_lists` lists it)."""
        return {}

    # --- validation of experiment settings ------------------------------------------------------
    def _check_influence(self, ids: Iterable[int]) -> tuple[int, ...]:
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


@dataclass(eq=False)
class RunState:
    """What the framework sets on a world for one run, on one name (`world.run`): a world's own code
    reads these, the runner and the planners set them."""

    world: SteerableWorld = field(repr=False)
    #: "reference" (all rule, may stop at rest), "treatment" (plays its horizon) or "settle"
    role: str
    #: the steering objective influence agents are told (the runner sets the chosen one)
    objective: str
    #: the influence agents' ids (empty in the reference)
    influence_ids: tuple[int, ...] = ()
    _mask: Any = field(default=(), repr=False)
    #: every influence decision and what the world made of it, in order
    audit: list[AuditEntry] = field(default_factory=list)
    #: where the run stands: running, or the status it ended with (its stopping rule's, or the
    #: runner's at the horizon); a world declares `stopping_rule()` and never sets it
    status: str = Status.RUNNING

    @property
    def mask_ids(self) -> tuple[int, ...]:
        """The ids masked from scoring in both runs (the influence agents, where the world masks)."""
        if callable(self._mask):
            self._mask = self.world._masked(self._mask(self.world))
        return self._mask


W = TypeVar("W", bound=SteerableWorld)


def play_round(world: SteerableWorld, decisions: Mapping[int, Decision] | None = None) -> list[AuditEntry]:
    """`world.aplay_round` with fixed decisions (missing ones follow the rule), without an event
    loop: what Mesa's `step()` and scripts call."""
    fixed = dict(decisions or {})

    async def decide(ids: Sequence[int]) -> list[Decision]:
        return [fixed.get(aid, Decision.follow_rule()) for aid in ids]

    return drive(world.aplay_round(decide))


def fork(world: W) -> W:
    """An exact copy of the world as it stands mid-run: state, every random stream, round and
    audit, its records off; playing it forward never touches the world (what a planner rolls
    candidate actions out on)."""
    return world._fork()


#: what `aplay_round` asks: one decision per influence id, in the order given
Decide = Callable[[Sequence[int]], Awaitable[Sequence[Decision]]]


async def _follow_rule(ids: Sequence[int]) -> list[Decision]:
    return [Decision.follow_rule() for _ in ids]


def drive(round_: Coroutine[Any, Any, Any]) -> Any:
    """Run a round whose decisions are at hand to its end without an event loop (it never waits)."""
    try:
        round_.send(None)
    except StopIteration as finished:
        return finished.value
    round_.close()
    raise RuntimeError("this round waits for its decisions: play it with `await world.aplay_round(decide)`")


def _models(world: SteerableWorld) -> list[mesa.Model]:
    """The world and the Mesa models it wraps."""
    return [world, *(v for v in vars(world).values() if isinstance(v, mesa.Model) and v is not world)]


def _spaces(world: SteerableWorld) -> list[DiscreteSpace]:
    """The Mesa discrete spaces a world holds, itself or in a Mesa model it wraps."""
    return [v for h in _models(world) for v in vars(h).values() if isinstance(v, DiscreteSpace)]


def _copy_random(original: pyrandom.Random, memo: dict[int, Any]) -> pyrandom.Random:
    twin = type(original).__new__(type(original), 0)
    twin.setstate(original.getstate())
    vars(twin).update(copy.deepcopy(vars(original), memo))
    return twin


#: the recursion limit while a fork is copied (a Mesa network's cells link agent to agent)
FORK_RECURSION = 20_000


class _RecordsOff:
    """A fork's DataCollector: it keeps nothing, so rollouts cost no records."""

    def collect(self, model: Any) -> None:
        return None


RECORDS_OFF = _RecordsOff()
