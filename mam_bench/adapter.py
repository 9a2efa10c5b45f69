"""Steer an ordinary Mesa 3 model: subclass `MesaWorld` and declare four things.

    class SteeredOpinions(MesaWorld):
        name = "opinions"; model_class = OpinionModel; rounds = 60
        Action = Opinion                                  # the influence action schema
        scoring = Scoring(metric="share", objectives={"spread": +1, "suppress": -1})
        def is_actor(self, agent): return isinstance(agent, Person)  # swappable agents
        def apply(self, agent, action): agent.opinion = action.opinion
        def outcome(self): return {"share": ...}          # metrics, the primary among them

Optional: `observation(agent) -> dict` (extra numbers for influence agents), `rule_action(actor_id)`
(for `mimic`), `finished() -> str | None` (a stop status of its own); on the Action class,
`null_action()` (default: the schema's defaults) and `random_action(observation, rng)` (default: read
from the schema's Literal, bool and bounded fields).
A model that sets Mesa's own `running = False` stops there (status "stopped") without `finished()`.

What the adapter guarantees (each round of the pair, reference and treatment alike):
- Every call of an agent's `step` (or `step_method`) runs with the model's own generators
  (`model.random`, `model.rng`, hence `agent.random`, `agent.rng` and every space or AgentSet
  built with `random=model.random`) reseeded from that agent's addressed stream
  `agent_stream(seed, "turn", round, unique_id)`, then restored. Swapping one agent for an
  influence agent therefore never moves another agent's draws.
- Outside agent steps, the model's generators are reseeded per round from `stream(seed, ...,
  round)`; `AgentSet.shuffle`/`shuffle_do` order agents by a key from the same per-agent stream,
  so the order of two agents never depends on a third.
- An influence agent that does not defer has its `step` replaced by `apply(agent, action)`;
  one that defers runs its own `step`. One audit entry per influence agent per round.
- Nothing outside the driven model changes: its own `model.random` gets a class whose `shuffle`
  orders its agents while the world drives a round (Mesa's `AgentSet` is not patched), and
  `world.agents` is the model's agents.
- The model's own `step()` runs once per round: `model.steps` counts rounds, and a DataCollector
  the model collects in `step()` gets one row per round.

What a model must avoid (checked where the adapter can see it):
- Python's global `random` or numpy's global `np.random`: detected (error after the round).
- Generators of its own besides `model.random`/`model.rng` (e.g. a space built without
  `random=self.random`, or `np.random.default_rng()` kept on the model): not detectable; they
  break exact pairing.
- Scheduling agents outside their `step` (an influence agent is replaced only inside its `step`):
  detected when an influence agent's `step` never ran in a round ("blocked" in the audit).
- Agents reading other agents' `random` (draws are attributed to the agent whose step runs).
"""

from __future__ import annotations

import inspect
import json
import random as pyrandom
import types
import typing
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

import mesa
import numpy as np
from pydantic import BaseModel, ValidationError, create_model

from mam_bench import global_draws, model_ids, streams
from mam_bench.capabilities import RandomActions, null_action
from mam_bench.params import WorldParams
from mam_bench.pcg_stream import PCGStream, pcg_seeds, pcg_seeds_of
from mam_bench.protocol import FAILED_OUTCOMES, OK_OUTCOMES, AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.status import Status
from mam_bench.streams import agent_stream, stream
from mam_bench.world import SteerableWorld

_SCALARS = (int, float, bool, str)


class IsolationError(RuntimeError):
    """The model drew from a generator the adapter does not address (pairing would not be exact)."""


@dataclass(frozen=True)
class AgentObservation:
    """What an influence agent sees: its own public state, the round's metrics, declared extras."""

    actor_id: int
    round: int
    state: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_text(self) -> str:
        return json.dumps(
            {
                "actor_id": self.actor_id,
                "round": self.round,
                "state": self.state,
                "metrics": self.metrics,
                "extra": self.extra,
            },
            sort_keys=True,
        )

    @classmethod
    def from_text(cls, text: str) -> AgentObservation:
        return cls(**json.loads(text))


def public_state(agent: Any) -> dict[str, Any]:
    """The agent's public scalar attributes (what records, observations and portrayals use)."""
    out = {}
    for key, value in vars(agent).items():
        if key.startswith("_") or key in ("unique_id", "model", "pos", "step"):
            continue
        if isinstance(value, (bool, np.bool_)):
            out[key] = bool(value)
        elif isinstance(value, (int, np.integer)):
            out[key] = int(value)
        elif isinstance(value, (float, np.floating)):
            out[key] = float(value)
        elif isinstance(value, str):
            out[key] = value
    return out


def _scalar(value: Any) -> Any:
    """A JSON scalar for the record (numpy scalars and the rest become Python's, or text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    return str(value)


def params_from_signature(model_class: type) -> type[WorldParams]:
    """A frozen Params class from the model's `__init__` keyword defaults (scalars only)."""
    fields: dict[str, Any] = {}
    for p in inspect.signature(model_class.__init__).parameters.values():
        if p.name in ("self", "seed", "rng") or p.default is inspect.Parameter.empty:
            continue
        if isinstance(p.default, _SCALARS):
            fields[p.name] = (type(p.default), p.default)
    return create_model(f"{model_class.__name__}Params", __base__=WorldParams, **fields)


def random_from_schema(action_cls: type[BaseModel], rng: Any) -> dict[str, Any]:
    """A uniformly random action for schemas made of Literal, bool and bounded int/float fields."""
    out: dict[str, Any] = {}
    for name, f in action_cls.model_fields.items():
        ann = f.annotation
        args = typing.get_args(ann)
        if typing.get_origin(ann) is typing.Literal:
            out[name] = args[int(rng.integers(len(args)))]
        elif typing.get_origin(ann) in (typing.Union, types.UnionType) and type(None) in args:
            inner = [a for a in args if a is not type(None)]
            lits = (
                [v for a in inner for v in typing.get_args(a)]
                if all(typing.get_origin(a) is typing.Literal for a in inner)
                else None
            )
            if lits is None:
                raise NotImplementedError(f"{action_cls.__name__}.{name}: declare random_action")
            choices = [None, *lits]
            out[name] = choices[int(rng.integers(len(choices)))]
        elif ann is bool:
            out[name] = bool(rng.integers(2))
        elif ann in (int, float):
            lo = next((m.ge for m in f.metadata if hasattr(m, "ge")), None)
            hi = next((m.le for m in f.metadata if hasattr(m, "le")), None)
            if lo is None or hi is None:
                raise NotImplementedError(f"{action_cls.__name__}.{name} has no bounds: declare random_action")
            out[name] = int(rng.integers(lo, hi + 1)) if ann is int else float(rng.uniform(lo, hi))
        else:
            raise NotImplementedError(f"{action_cls.__name__}.{name}: declare random_action")
    return out


class MenuDraws:
    """An Action mixin for a world with a small menu (`ActionMenu`): `random_action` is a uniform
    draw from `legal_actions`, what the `random` controller and the oracle's candidates ask."""

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        menu = cls.legal_actions(observation)  # type: ignore[attr-defined]
        return menu[int(rng.integers(len(menu)))]


def with_schema_random(action_cls: type[BaseModel]) -> type[BaseModel]:
    """The user's Action, same name and schema, with `random_action` read from its fields
    (`random_from_schema`): a subclass, so the user's own class is left as it is."""

    def random_action(cls: type[BaseModel], observation: Any, rng: Any) -> dict[str, Any]:
        return random_from_schema(action_cls, rng)

    extra = {"__module__": action_cls.__module__, "__qualname__": action_cls.__qualname__}
    return type(action_cls.__name__, (action_cls,), {**extra, "random_action": classmethod(random_action)})


class MesaWorld(SteerableWorld):
    """A SteerableWorld around an ordinary Mesa model (`self.model`); see the module docstring."""

    model_class: ClassVar[type[mesa.Model]]
    #: treatment horizon (the runner's --rounds overrides it)
    rounds: ClassVar[int] = 50
    #: the agent method the model's schedule calls each round
    step_method: ClassVar[str] = "step"
    #: the reference's cap, apart from the treatment horizon (like a world's own `max_rounds` parameter): the
    #: reference plays on until `finished()` or this many rounds, so `--settle` can see persistence
    #: in a process that outlasts the horizon; None caps the reference at the horizon
    max_rounds: ClassVar[int | None] = None
    #: the default influence agents when the user gives only a count: "lowest" (the lowest actor
    #: ids), "random" (drawn from the addressed stream (seed, "placement", 0), the same set in the
    #: reference's mask and the treatment), or the ids in the order they are taken
    placement: ClassVar[str | tuple[int, ...]] = "lowest"
    #: what the generic board colours agents by: a public attribute (None: the first public
    #: attribute of the first actor); override `agent_state` for a derived state
    state_attribute: ClassVar[str | None] = None
    #: the state's colours by value (as text); values not named get the colour-blind-safe palette
    state_colors: ClassVar[dict[str, str]] = {}
    #: numeric states: the bins' upper edges (e.g. (0, 1, 2, 4): 0, 1, 2, 3-4, above 4), the same
    #: on both boards; without them a numeric state with many values is binned by the row's range
    state_bins: ClassVar[tuple[float, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "model_class" in cls.__dict__ and "Params" not in cls.__dict__:
            cls.Params = params_from_signature(cls.model_class)
        scoring = cls.__dict__.get("scoring")
        if isinstance(scoring, Scoring) and "treatment_stops_early" not in scoring.model_fields_set:
            # an adapted model plays its fixed horizon unless its scoring says otherwise
            cls.scoring = cls.scoring.model_copy(update={"treatment_stops_early": False})
        if "Action" in cls.__dict__ and not isinstance(cls.Action, RandomActions):
            cls.Action = with_schema_random(cls.Action)

    def __init__(self, params: WorldParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        self._decisions: dict[int, Decision] = {}
        self._entries: dict[int, AuditEntry] = {}
        self._layout: dict[Any, tuple[float, float]] | None = None
        self._turn_words: dict[tuple[int, int], list[int]] = {}
        self._rng_states: dict[tuple[int, int], tuple[int, int]] = {}
        self.model = self.build_model()
        model_ids.adopt(self.model)
        if type(self.model.random) is pyrandom.Random:  # this model's generator only; Mesa is untouched
            self.model.random.__class__ = AddressedRandom
        self._wrap_agents()
        self._label = self.state_label()  # fixed at setup: both runs' boards name the same state
        # the text states present at setup, in order: both runs give them the same colours
        self._setup_states = sorted({str(self.agent_state(a)) for a in self.model.agents} - {"None"})

    # --- declarations (override) ---------------------------------------------------------------
    def build_model(self) -> mesa.Model:
        """The user's model from the params; `seed` goes to Mesa, so setup draws match in both runs."""
        return self.model_class(**self.params.model_dump(), seed=self.seed)

    def is_actor(self, agent: mesa.Agent) -> bool:
        """Which agents may be swapped for influence agents (default: every agent)."""
        return True

    def apply(self, agent: mesa.Agent, action: Any) -> str | None:
        """Apply a validated influence action in place of the agent's step; return an audit outcome
        ("accepted" when None; "blocked", "invalid", ... when the model refuses it)."""
        raise NotImplementedError(f"{type(self).__name__} must define apply(agent, action)")

    def outcome(self) -> dict[str, float]:
        raise NotImplementedError(f"{type(self).__name__} must define outcome() -> metrics")

    def observation(self, agent: mesa.Agent) -> dict[str, Any]:
        """Extra numbers an influence agent sees besides its own state and the metrics."""
        return {}

    def agent_state(self, agent: mesa.Agent) -> Any:
        """The state the board shows for an agent (default: its `state_attribute`)."""
        name = self.state_label()
        return getattr(agent, name, None) if name else None

    def state_label(self) -> str | None:
        """The declared `state_attribute`, else the first public attribute of the first actor."""
        if self.state_attribute is not None:
            return self.state_attribute
        first = next(iter(self.actors().values()), None)
        return next(iter(public_state(first)), None) if first is not None else None

    def finished(self) -> str | None:
        """A status of its own once the model has come to rest (e.g. "consensus"), else None.

        Not needed for a model that sets Mesa's own `running = False`: that stops it too."""
        return None

    def stopping_rule(self) -> str | None:
        """`finished()`'s status, else "stopped" once the model set its own `running = False`."""
        return self.finished() or (None if getattr(self.model, "running", True) else Status.STOPPED)

    def horizon_status(self) -> str:
        """Where a treatment stands at its fixed horizon: at rest by its rule, else fixed_horizon."""
        return self.stopping_rule() or Status.FIXED_HORIZON

    @property
    def agents(self) -> mesa.agent.AgentSet:
        """The user model's agents (the wrapper holds none of its own)."""
        return self.model.agents

    # --- the contract, derived ----------------------------------------------------------------
    def actors(self) -> dict[int, mesa.Agent]:
        return {int(a.unique_id): a for a in self.model.agents if self.is_actor(a)}

    def actor_ids(self) -> list[int]:
        return sorted(self.actors())

    def ordinary_agents(self) -> mesa.agent.AgentSet:
        """The model's agents less `self.run.mask_ids`, the same ids in the reference and the treatment:
        count these in `outcome()` when `scoring.masks_influence` is set. (`self.run.influence_ids` is
        empty in the reference, so an outcome that leaves those out differs between the runs.)"""
        masked = set(self.run.mask_ids)
        return self.model.agents.select(lambda a: int(a.unique_id) not in masked)

    def horizon(self) -> int:
        return self.rounds

    def _reference_cap(self) -> int:
        horizon = self.horizon()
        return horizon if self.max_rounds is None else max(int(self.max_rounds), horizon)

    def _default_influence_ids(self, n: int) -> list[int]:
        """The declared `placement`: the lowest actor ids, a random draw, or the named ids."""
        ids = self.actor_ids()
        if self.placement == "lowest":
            return ids[:n]
        if self.placement == "random":
            chosen = stream(self.seed, "placement", 0).choice(len(ids), size=min(n, len(ids)), replace=False)
            return sorted(ids[i] for i in chosen)
        named = [int(i) for i in self.placement]
        return named[:n] if n <= len(named) else named + [i for i in ids if i not in named][: n - len(named)]

    @classmethod
    def placement_text(cls) -> str:
        """How the default influence ids are picked, in the words `run` prints."""
        if cls.placement == "lowest":
            return "the lowest actor ids"
        if cls.placement == "random":
            return 'drawn from the stream (seed, "placement", 0)'
        return "the world's named ids"

    def metrics(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.outcome().items()}

    def observe(self, actor_id: int) -> AgentObservation:
        agent = self.actors()[actor_id]
        return AgentObservation(actor_id, self.round, public_state(agent), self.metrics(), self.observation(agent))

    def snapshot(self) -> dict[str, Any]:
        """Every agent's id, kind, position (x, y) and public state: enough to redraw the world."""
        agents = []
        label = self._label
        for a in sorted(self.model.agents, key=lambda a: a.unique_id):
            entry = {"id": int(a.unique_id), "kind": type(a).__name__, "xy": self._xy(a), **public_state(a)}
            if label is not None:
                entry["board_state"] = _scalar(self.agent_state(a))
            agents.append(entry)
        out: dict[str, Any] = {"agents": agents}
        if label is not None:
            out["state"] = {
                "attribute": label,
                "colors": dict(self.state_colors),
                "bins": list(self.state_bins),
                "values": self._setup_states,
            }
        edges = self._edges()
        if edges:
            out["edges"] = edges
        return out

    def _edges(self) -> list[list[float]]:
        """A network space's edges as segments [x0, y0, x1, y1] in the layout's coordinates."""
        graph = next((v.G for v in vars(self.model).values() if hasattr(v, "G")), None)
        if graph is None:
            return []
        pos = self._network_layout()
        return [[*pos[u], *pos[v]] for u, v in graph.edges() if u in pos and v in pos]

    def _xy(self, agent: Any) -> list[float] | None:
        cell = getattr(agent, "cell", None)
        coord = getattr(cell, "coordinate", None) if cell is not None else getattr(agent, "pos", None)
        if coord is None:
            return None
        if isinstance(coord, (tuple, list, np.ndarray)) and len(coord) >= 2:
            return [float(coord[1]), float(coord[0])] if cell is not None else [float(coord[0]), float(coord[1])]
        return list(self._network_layout().get(coord, (0.0, 0.0)))

    def _network_layout(self) -> dict[Any, tuple[float, float]]:
        """Fixed positions for network nodes (one layout per world: both runs draw alike)."""
        if self._layout is None:
            from mam_bench.network_layout import network_layout

            graph = next((v.G for v in vars(self.model).values() if hasattr(v, "G")), None)
            self._layout = network_layout(graph) if graph is not None else {}
        return self._layout

    # --- the round ------------------------------------------------------------------------------
    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry]:
        self._decisions = {aid: d for aid, d in decisions.items() if aid in self.run.influence_ids}
        self._entries = {}
        self._wrap_agents()
        with global_draws.watch() as drew, self._driving():
            self.model.step()
        if drew():
            raise IsolationError(
                f"{type(self.model).__name__} drew from Python's global `random` or numpy's `np.random` in round "
                f"{self.round}; draw from self.random / self.rng so every agent gets its own stream"
            )
        for aid in self.run.influence_ids:  # an influence agent whose step never ran this round
            self._entries.setdefault(aid, AuditEntry(self.round, aid, None, "blocked", "its step did not run"))
        return [self._entries[aid] for aid in self.run.influence_ids]

    def _forked(self, original: SteerableWorld) -> None:
        """The copied agents' steps still route through the original world: route them here."""
        super()._forked(original)
        for agent in self.model.agents:
            vars(agent).pop(self.step_method, None)
        self._wrap_agents()

    def _wrap_agents(self) -> None:
        """Route each agent's step through the adapter (an instance attribute; its class is untouched)."""
        for agent in list(self.model.agents):
            own = getattr(agent, self.step_method, None)
            if own is None or self.step_method in vars(agent):  # no step, or already routed
                continue
            setattr(agent, self.step_method, self._turn_of(agent, own))

    def _turn_of(self, agent: Any, own: Any) -> Any:
        def turn(*args: Any, **kwargs: Any) -> Any:
            return self._turn(agent, own, args, kwargs)

        return turn

    def _turn(self, agent: Any, own: Any, args: tuple, kwargs: dict) -> Any:
        aid = int(agent.unique_id)
        decision = self._decisions.get(aid)
        with self.agent_streams(aid):
            if decision is None or decision.defer:
                result = own(*args, **kwargs)
                if aid in self._decisions:
                    self._entries.setdefault(aid, AuditEntry(self.round, aid, "rule", "accepted", deferred=True))
                return result
            self._entries.setdefault(aid, self._apply_decision(agent, decision))
        return None

    def _apply_decision(self, agent: Any, d: Decision) -> AuditEntry:
        aid, null = int(agent.unique_id), null_action(self.Action)
        if d.error is not None:
            self.apply(agent, self.Action.model_validate(null))
            return AuditEntry(self.round, aid, dict(null), "policy_error", d.error)
        try:
            action = self.Action.model_validate(d.action)
        except ValidationError as exc:
            self.apply(agent, self.Action.model_validate(null))
            return AuditEntry(self.round, aid, d.action, "invalid", str(exc.errors()[0]["msg"]))
        outcome = self.apply(agent, action) or "accepted"
        if outcome not in OK_OUTCOMES + FAILED_OUTCOMES:
            raise ValueError(
                f"{type(self).__name__}.apply returned {outcome!r}; use one of {OK_OUTCOMES + FAILED_OUTCOMES}"
            )
        dumped = action.model_dump()
        if outcome == "accepted" and dumped == null:
            outcome = "stay"
        return AuditEntry(self.round, aid, dumped, outcome)

    # --- randomness -----------------------------------------------------------------------------
    def words(self, aid: int) -> list[int]:
        """An agent's words for this round from its one addressed stream: order key, `random` seed,
        `rng` seed (one stream per agent and round keeps the per-turn cost to one generator)."""
        key = (self.round, aid)
        if key not in self._turn_words:
            self._this_round()
            self._turn_words[key] = agent_stream(self.seed, "turn", self.round, aid).integers(2**63, size=3).tolist()
        return self._turn_words[key]

    def _this_round(self) -> None:
        if self._turn_words and next(iter(self._turn_words))[0] != self.round:
            self._turn_words.clear()
            self._rng_states.clear()

    def prefetch_words(self, aids: list[int]) -> None:
        """The words of many agents at once, and their `rng` seeds' PCG64 states: the same numbers
        as `words` (a test holds them equal), hashed together instead of one numpy stream and one
        numpy seeding per agent, which cost most of a small agent's turn. Skipped while draws are
        logged (`record_draws` sees each agent's stream) or where a word exceeds 32 bits."""
        self._this_round()
        missing = [aid for aid in aids if (self.round, aid) not in self._turn_words]
        if not missing or streams.recording() or not all(0 <= x < 2**32 for x in (self.seed, self.round, *missing)):
            return
        head = (*streams.MAGIC, streams.purpose_word("turn"), self.round)
        words = [PCGStream.at(*state).below_2_63(3) for state in pcg_seeds(head, missing, [self.seed])]
        for aid, w, state in zip(missing, words, pcg_seeds_of([w[2] for w in words])):
            self._turn_words[(self.round, aid)] = w
            self._rng_states[(self.round, aid)] = state

    def _reseed(self, seed_random: int, seed_rng: int, rng_state: tuple[int, int] | None = None) -> None:
        self.model.random.seed(seed_random)
        if rng_state is None:
            self.model.rng.bit_generator.state = np.random.PCG64(seed_rng).state
        else:
            self.model.rng.bit_generator.state = {
                "bit_generator": "PCG64",
                "state": {"state": rng_state[0], "inc": rng_state[1]},
                "has_uint32": 0,
                "uinteger": 0,
            }

    @contextmanager
    def agent_streams(self, aid: int) -> Iterator[None]:
        """The model's generators hold this agent's own streams for the length of its turn."""
        saved = (self.model.random.getstate(), self.model.rng.bit_generator.state)
        _, seed_random, seed_rng = self.words(aid)
        self._reseed(seed_random, seed_rng, self._rng_states.get((self.round, aid)))
        try:
            yield
        finally:
            self.model.random.setstate(saved[0])
            self.model.rng.bit_generator.state = saved[1]

    @contextmanager
    def _driving(self) -> Iterator[None]:
        """Per-round model streams, and per-agent order keys for the model's AgentSets, while the
        model's own step runs (a per-model registration, so concurrent sessions cannot mix)."""
        seed_random, seed_rng = stream(self.seed, "model", self.round).integers(2**63, size=2).tolist()
        self._reseed(seed_random, seed_rng)
        _DRIVEN[id(self.model.random)] = self
        try:
            yield
        finally:
            _DRIVEN.pop(id(self.model.random), None)


#: id of a model's own `random` -> the MesaWorld driving that model right now
_DRIVEN: dict[int, MesaWorld] = {}


class AddressedRandom(pyrandom.Random):
    """A driven model's own `random`, unchanged but for `shuffle`: Mesa's `AgentSet.shuffle` and
    `shuffle_do` shuffle the set's agents with it, and while a MesaWorld drives the model they are
    ordered by per-agent keys instead, so the order of two agents never depends on a third. Every
    other generator, and this one outside a driven round, shuffles as Python's does."""

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        world = _DRIVEN.get(id(self))
        agents = [r() for r in x] if world is not None and all(isinstance(r, weakref.ref) for r in x) else None
        if not agents or any(getattr(a, "model", None) is not world.model for a in agents):
            super().shuffle(x)
            return
        world.prefetch_words([int(a.unique_id) for a in agents])
        key = {id(a): (world.words(int(a.unique_id))[0], a.unique_id) for a in agents}
        x.sort(key=lambda r: key[id(r())])
