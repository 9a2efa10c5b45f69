"""The paired runner: the same seeded world twice, reference (all rule) and treatment.

Everything is validated before the first round is played: world, parameters, objective,
influence ids, output folder. The treatment follows the round protocol of docs/architecture.md:
coordination (posts), decision (concurrent), resolution, metrics and records.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from mam_bench import global_draws, model_ids
from mam_bench.audit import audit_counts
from mam_bench.board import CoordinationBoard
from mam_bench.capabilities import (
    DeclaredActions,
    HorizonBasin,
    RuleActions,
)
from mam_bench.controller import Controller
from mam_bench.errors import ConfigError, config_error_from
from mam_bench.inputs import spec_record
from mam_bench.limits import check_memory
from mam_bench.outcome import MAX_POLICY_ERROR_SHARE, delta_lift_relative, lift_split, trajectory_lift, validity
from mam_bench.pair_result import PairResult
from mam_bench.params import WorldParams
from mam_bench.preflight import CachedAnswers, build_controller
from mam_bench.prompts import prompts_for
from mam_bench.protocol import Decision, Request
from mam_bench.provenance import provenance
from mam_bench.record_schema import RECORD_VERSION
from mam_bench.records import DIGESTS_KEY, RunRecords, snapshot_digests
from mam_bench.registry import get_world, load, make_controller, part_of
from mam_bench.snapshots import as_lists
from mam_bench.status import Status
from mam_bench.world import play_round

if TYPE_CHECKING:
    from mam_bench.world import SteerableWorld


class PairSpec(BaseModel):
    """One paired experiment. Validated whole before any work."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    world: str
    seed: int = Field(0, ge=0)
    params: dict[str, Any] = Field(default_factory=dict)
    objective: str | None = None
    #: the controller's registered name (`mam-bench run --controller`)
    controller: str = "rule"
    influence: int | None = Field(None, ge=0)
    influence_ids: tuple[int, ...] | None = None
    rounds: int | None = Field(None, ge=1)
    board_window: int = Field(3, ge=1)
    post_cap: int = Field(4000, ge=1)
    controller_options: dict[str, Any] = Field(default_factory=dict)
    #: after the horizon, hand the influence agents back to the rule and run on to rest
    settle: bool = False
    #: a treatment whose controller failed more than this share of its decisions is invalid
    max_policy_error_share: float = Field(MAX_POLICY_ERROR_SHARE, ge=0, le=1)

    @model_validator(mode="after")
    def _one_influence_form(self) -> PairSpec:
        if self.influence is not None and self.influence_ids is not None:
            raise ValueError("give either influence or influence_ids, not both")
        if "name" in self.controller_options:  # the records keep the options beside the name
            raise ValueError("controller_options: `name` is the controller's own name, not an option")
        return self

    @classmethod
    def build(cls, **kw: Any) -> PairSpec:
        try:
            return cls(**kw)
        except ValidationError as exc:
            raise config_error_from(exc) from None


@dataclass
class Prepared:
    """A spec resolved against its world: every check passed. It holds the reference and the
    treatment world its checks built, unplayed, and hands each out once (`new_world`), so no
    world is built twice; `prepare_run` adds the controller."""

    spec: PairSpec
    world_cls: type[SteerableWorld]
    params: WorldParams
    objective: str
    direction: int
    influence_ids: tuple[int, ...]
    #: the rounds the treatment plays (the spec's `rounds`, else the world's own horizon)
    horizon: int
    #: the pair's controller, built once by `prepare_run` (None from `prepare` alone)
    controller: Controller | None = None
    _held: dict[bool, SteerableWorld] = field(default_factory=dict, init=False, repr=False)

    @property
    def reference_cap(self) -> int:
        """The most rounds the reference plays (asked of the reference `prepare` built)."""
        reference = self._held.get(False) or self.new_world(treatment=False)
        self._held[False] = reference
        return reference._reference_cap()

    def new_world(self, treatment: bool) -> SteerableWorld:
        return self._held.pop(treatment, None) or self.fresh_world(treatment)

    def fresh_world(self, treatment: bool) -> SteerableWorld:
        """A world as the run builds it, leaving the ones held for the run untouched (a controller
        times a few rounds on it before the run)."""
        world = self.world_cls(
            self.params,
            seed=self.spec.seed,
            influence_ids=self.influence_ids if treatment else (),
            mask_ids=self.influence_ids,
            role="treatment" if treatment else "reference",
        )
        world.run.objective = self.objective
        return world


def prepare(spec: PairSpec, world_cls: type[SteerableWorld] | None = None) -> Prepared:
    """Resolve and check a spec; raises ConfigError naming the field on any problem.

    The reference is built first and picks (and masks) its own influence agents, so no probe
    world is built beside it; the treatment is built next, which checks that the world's metrics
    are defined with that many influence agents. Both are kept for the run.
    `world_cls` runs a world class that is not registered (mam_bench.testing.check_world).
    """
    world_cls = world_cls or get_world(spec.world)
    params = world_cls.Params.from_strings(spec.params) if not isinstance(spec.params, WorldParams) else spec.params
    check_memory(world_cls, params)
    scoring = world_cls.scoring
    objective = spec.objective or scoring.default_objective
    if objective not in scoring.objectives:
        raise ConfigError(
            "objective", f"{objective!r} is not an objective of {spec.world} (known: {', '.join(scoring.objectives)})"
        )

    def chosen(world: SteerableWorld) -> tuple[int, ...]:
        if spec.influence_ids is not None:
            return world._check_influence(spec.influence_ids)
        n = spec.influence if spec.influence is not None else world_cls._influence_count(params)
        if n > len(world.actor_ids()):
            raise ConfigError("influence", f"{n} influence agents but only {len(world.actor_ids())} agents")
        return world._check_influence(world._default_influence_ids(n))

    try:
        reference = world_cls(params, seed=spec.seed, mask_ids=chosen)
    except ConfigError:
        raise
    except Exception:  # noqa: BLE001 - told apart below: a bad parameter, a mask read too early, or undefined metrics
        ids = chosen(world_cls(params, seed=spec.seed, mask_ids=()))  # a bad parameter raises here, as it always did
        reference = measurable(spec, ids, lambda: world_cls(params, seed=spec.seed, mask_ids=ids))
    ids = chosen(reference)
    prep = Prepared(spec, world_cls, params, objective, scoring.objectives[objective], ids, 0)
    prep.horizon = spec.rounds or reference.horizon()
    if spec.rounds and spec.rounds > (cap := reference._reference_cap()):  # compared with a reference cut short
        raise ConfigError(
            "rounds",
            f"{prep.horizon} treatment rounds, but the {spec.world} reference stops at {cap}; give at most {cap} "
            "or raise the world's own horizon parameter",
        )
    prep._held[False] = reference
    prep._held[True] = measurable(spec, ids, lambda: prep.new_world(treatment=True))
    return prep


#: the world settings of a spec: what `prepare` checks (the controller plays no part in it)
_WORLD_FIELDS = frozenset({"world", "seed", "params", "objective", "influence", "influence_ids", "rounds"})
#: checked preparations by world settings, most recent last (a suite's cases, baselines and
#: controller checks share one; bounded, and keyed by the world class itself, so a class registered
#: anew under the same name is prepared anew)
_CHECKED: OrderedDict[tuple[int, str], Prepared] = OrderedDict()
_CHECKED_KEPT = 256


def prepared(spec: PairSpec) -> Prepared:
    """`prepare(spec)` for checking a suite: worlds are built once per world settings, however many
    cases, baselines and controller checks share them; the result holds no worlds (a run that plays
    it builds its own)."""
    world_cls = get_world(spec.world)
    key = (id(world_cls), json.dumps(spec.model_dump(mode="json", include=_WORLD_FIELDS), sort_keys=True))
    if key not in _CHECKED:
        prep = prepare(spec, world_cls)
        prep._held.clear()
        _CHECKED[key] = prep
        while len(_CHECKED) > _CHECKED_KEPT:
            _CHECKED.popitem(last=False)
    _CHECKED.move_to_end(key)
    return replace(_CHECKED[key], spec=spec, controller=None)


def measurable(spec: PairSpec, ids: tuple[int, ...], build: Callable[[], SteerableWorld]) -> SteerableWorld:
    """A world built with these influence agents: metrics it cannot define then (every agent an
    influence agent, so no ordinary neighbours are left to score) are a clear error."""
    try:
        return build()
    except ConfigError:
        raise
    except (RuntimeError, ValueError, ArithmeticError) as exc:
        cause = exc.__cause__ or exc.__context__ or exc
        field = "influence_ids" if spec.influence_ids is not None else "influence"
        raise ConfigError(
            field,
            f"{len(ids)} influence agents leave the world's metrics undefined ({cause}); use fewer influence agents",
        ) from None


def prepare_run(spec: PairSpec, controller: Controller | None = None) -> Prepared:
    """Everything a run needs, checked before any file is touched and returned for the run to use:
    parameters, objective, influence ids and both worlds (`prepare`), then the controller's
    extras and options and the controller itself, built once (`prep.controller`). A caller's own
    controller is taken as it is."""
    prep = prepare(spec)
    prep.controller = controller if controller is not None else build_controller(spec, prep)
    return prep


def round_row(world: SteerableWorld) -> dict[str, Any]:
    """One record row (reference.jsonl / treatment.jsonl): round, status, metrics, snapshot."""
    return {**_metrics_row(world), **as_lists(world.snapshot())}


def _metrics_row(world: SteerableWorld) -> dict[str, Any]:
    return {"round": world.round, "status": world.run.status, "metrics": world.metrics()}


class RoundRows:
    """One run's round rows as it plays. Each row's snapshot goes to the records at once (the
    binary `.snapshots` beside the JSON lines) and stays on the row in memory only when the
    records are not on disk and someone reads it (not a baseline): a million agents' snapshots of
    every round would not fit. A row's JSON line is written once the next row exists or the run
    closes, so the last line carries the final status."""

    def __init__(self, name: str, records: RunRecords | None, snapshots: bool = True) -> None:
        self.name, self.records = name, records
        self.on_disk = records is not None and records.out is not None
        self.keep = snapshots and not self.on_disk
        self.rows: list[dict[str, Any]] = []
        self._pending: dict[str, Any] | None = None

    def add(self, world: SteerableWorld) -> dict[str, Any]:
        self.flush()
        row = _metrics_row(world)
        if self.on_disk:
            self.records.append_snapshot(self.name, world.round, world.snapshot())
        kept = self.keep or (self.records and not self.on_disk)
        self.rows.append({**row, **as_lists(world.snapshot())} if kept else row)
        if self.records is not None:
            self._pending = self.rows[-1]
        return self.rows[-1]

    def flush(self) -> None:
        """Write the held row (its status as it now stands)."""
        if self._pending is not None and self.records is not None:
            self.records.append(self.name, self._pending, keep=not self.on_disk)
        self._pending = None


def step_reference(world: SteerableWorld) -> bool:
    """One reference round; False once the world is at rest or capped (its final state is held)."""
    if world._done:
        return False
    if world.round >= world._reference_cap():
        world.run.status = Status.HORIZON_EXHAUSTED
        return False
    before = world.round
    play_round(world)
    if world.round == before and not world._done:  # nothing happened and nothing will: stop
        world.run.status = Status.HORIZON_EXHAUSTED
    return world.round > before


def run_reference(prep: Prepared, records: RunRecords | None = None) -> tuple[SteerableWorld, list[dict[str, Any]]]:
    """All-rule run until the world is done or its cap; the final state is then held."""
    world = prep.new_world(treatment=False)
    rows = RoundRows("reference.jsonl", records)
    rows.add(world)
    while not world._done:
        if step_reference(world):
            rows.add(world)
    rows.rows[-1]["status"] = world.run.status
    rows.flush()
    return world, rows.rows


class Treatment:
    """The treatment, one round at a time: coordination, concurrent decisions, resolution, records.

    The runner plays it to the end; the dashboard steps it between frames. Both see the same
    decision rows (the shape of decisions.jsonl) and the same board.
    """

    def __init__(
        self, prep: Prepared, controller: Controller, records: RunRecords | None = None, snapshots: bool = True
    ):
        self.prep = prep
        self.controller = controller
        self.records = records
        self.world = prep.new_world(treatment=True)
        self.board = CoordinationBoard(
            window=prep.spec.board_window,
            post_cap=prep.spec.post_cap,
            enabled=prep.params.board_on(),
        )
        #: the world's prompts: the board's facts after each round are theirs
        self.prompts = prompts_for(prep.world_cls, prep.objective)
        controller.bind(prep.spec.world, prep.objective, prep.spec.seed)
        self.history: dict[int, list[dict[str, Any]]] = {i: [] for i in prep.influence_ids}
        self._rows = RoundRows("treatment.jsonl", records, snapshots)
        self.rows = self._rows.rows
        self._rows.add(self.world)
        self._rows.flush()
        self.decisions: list[dict[str, Any]] = []
        self.mismatches = 0

    def _write(self, name: str, row: dict[str, Any]) -> None:
        if self.records is not None:
            self.records.append(name, row)

    @property
    def round(self) -> int:
        return len(self.rows) - 1

    @property
    def finished(self) -> bool:
        return self.round >= self.prep.horizon or (self.world._done and self.world.scoring.treatment_stops_early)

    def _request(self, aid: int, phase: str) -> Request:
        """One agent's request, observed now (start of round, or its own turn when per turn)."""
        r, window = self.round, self.prep.spec.board_window
        wants_rule = self.controller.wants_rule_action and phase == "decision"
        return Request(
            world=self.prep.spec.world,
            actor_id=aid,
            round=r,
            objective=self.prep.objective,
            observation=self.world.observe(aid),
            board=self.board.view(r),
            phase=phase,
            history=tuple(h for h in self.history[aid] if h["round"] > r - window - 1),
            rule_action=self.world.rule_action(aid) if wants_rule else None,
        )

    def _requests(self, phase: str) -> list[Request]:
        return [self._request(aid, phase) for aid in self.prep.influence_ids]

    async def _decide_round(self) -> tuple[dict[int, Decision], list[Any]]:
        """The decision and resolution phases, through the world's one round entry point: the
        controller is asked from the start-of-round state, or per agent at its turn where the world
        decides per turn (AgentWorld); each request is observed when it is asked."""
        by_id: dict[int, Decision] = {}

        async def decide(ids: Sequence[int]) -> list[Decision]:
            decisions = await self.controller.decide([self._request(aid, "decision") for aid in ids])
            by_id.update(zip(ids, decisions))
            return decisions

        return by_id, await self.world.aplay_round(decide)

    async def step(self) -> list[dict[str, Any]]:
        """Play one round; returns its decision rows (empty once finished)."""
        if self.finished:
            return []
        ids, world, r = self.prep.influence_ids, self.world, self.round
        if self.controller.privileged:  # a named upper bound plans on forks of the live world
            await self.controller.plan_round(world, self.prep.horizon)
        posts: dict[int, str] = {}
        if self.controller.posts and ids and self.board.enabled:  # no board, no coordination phase
            texts = await self.controller.post(self._requests("coordination"))
            for aid, text in zip(ids, texts):
                if text:
                    entry = self.board.post(r, aid, text)
                    posts[aid] = entry.text if entry else str(text)
        by_id, entries = await self._decide_round()
        for fact in self.prompts.facts(world, entries):
            self.board.fact(r, fact)
        rows = []
        for e in entries:
            d = by_id.get(e.actor_id, Decision.follow_rule())
            post = posts.get(e.actor_id)
            declared = (
                world.Action.declared_action(e.actor_id, post)
                if post and isinstance(world.Action, DeclaredActions)
                else None
            )
            mismatch = declared is not None and declared != e.action
            self.mismatches += int(mismatch)
            self.history[e.actor_id].append(
                {"round": r, "post": post, "action": e.action, "outcome": e.outcome, "message": d.message}
            )
            row = {
                "round": r,
                "actor_id": e.actor_id,
                "post": post,
                "action": e.action,
                "decision": d.action,
                "message": d.message,
                "outcome": e.outcome,
                "detail": e.detail,
                "deferred": e.deferred,
                "error": d.error,
                "raw": d.raw,
                "declared": declared,
                "mismatch": mismatch,
            }
            rows.append(row)
            self._write("decisions.jsonl", row)
        self.decisions.extend(rows)
        self._rows.add(world)
        if self.finished:  # close first, so the last written row carries the final status
            self._close()
        self._rows.flush()
        return rows

    def _close(self) -> None:
        if self.world.run.status == Status.RUNNING:
            stop = Status.HORIZON_EXHAUSTED if self.world.scoring.treatment_stops_early else Status.FIXED_HORIZON
            if isinstance(self.world, HorizonBasin) and not self.world.scoring.treatment_stops_early:
                stop = self.world.horizon_status()
            self.world.run.status = stop
        self.rows[-1]["status"] = self.world.run.status


async def run_treatment(
    prep: Prepared,
    controller: Controller,
    records: RunRecords | None = None,
    on_round: Callable[[int, SteerableWorld], None] | None = None,
    snapshots: bool = True,
) -> tuple[SteerableWorld, list[dict[str, Any]], CoordinationBoard, int]:
    """Play the whole treatment; returns the world, its rows, the board and the mismatch count
    (`snapshots=False`: rows without snapshots, for a run only its metrics are read from)."""
    run = Treatment(prep, controller, records, snapshots)
    while not run.finished:
        await run.step()
        if on_round is not None:
            on_round(run.round - 1, run.world)
    run._close()
    return run.world, run.rows, run.board, run.mismatches


def _run_summary(world: SteerableWorld, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "status": world.run.status,
        "rounds": world.round,
        "initial": rows[0]["metrics"],
        "final": rows[-1]["metrics"],
    }


async def arun_pair(
    spec: PairSpec,
    out: Path | str | None = None,
    controller: Controller | None = None,
    prep: Prepared | None = None,
    on_round: Callable[[int, SteerableWorld], None] | None = None,
    baselines: Sequence[str] = (),
) -> dict[str, Any]:
    """Play the pair and write its run directory (if `out`); returns the result dict.

    `baselines` (e.g. `("stay", "mimic")`) are rule-based controllers played against the same
    reference; result.json then holds their lift beside the controller's (`mam-bench run` asks).

    An LLM controller without an explicit cache gets `out/llm_cache.sqlite`, so rerunning the
    same directory (`mam-bench run --resume DIR`) repeats no call that completed.
    The pair's rounds run alone in this context, so a user model's draws from the global
    generators are checked (`global_draws`); its worlds' Mesa id counters are released at the end.
    """
    with global_draws.checked(), model_ids.released_after():
        return await _arun_pair(spec, out, controller, prep, on_round, baselines)


async def _arun_pair(
    spec: PairSpec,
    out: Path | str | None,
    controller: Controller | None,
    prep: Prepared | None,
    on_round: Callable[[int, SteerableWorld], None] | None,
    baselines: Sequence[str],
) -> dict[str, Any]:
    given = controller
    prep = prep or prepare_run(spec, given)
    controller = given or prep.controller or build_controller(spec, prep)
    if given is not None:  # a caller's own controller is recorded by its own name
        spec = spec.model_copy(update={"controller": recorded_name(spec, given)})
    records = RunRecords(out)
    cache = spec.controller_options.get("cache") or (Path(out) / "llm_cache.sqlite" if out is not None else None)
    if given is None and cache and isinstance(controller, CachedAnswers):  # the run's folder is the run's now
        controller.open_cache(cache)
    controller.attach_records(records)
    records.write_json("spec.json", {"record_version": RECORD_VERSION, **spec_record(spec, prep)})
    started = time.perf_counter()
    try:
        ref, ref_rows = run_reference(prep, records)
        tre, tre_rows, board, mismatches = await run_treatment(prep, controller, records, on_round)
    finally:
        records.close()
        await controller.aclose()
    if records.out is not None:
        board.to_jsonl(records.out / "board.jsonl")
    played = Played(ref, ref_rows, tre, tre_rows, mismatches)
    result = await pair_result(spec, prep, controller, records, played, baselines)
    record = result.record()
    if records.out is not None:  # each .snapshots file's sha256: a swapped or replaced one is caught
        record[DIGESTS_KEY] = snapshot_digests(records.out)
    records.write_json("result.json", record)
    return result.returned(time.perf_counter() - started, controller.session_usage())


@dataclass(frozen=True)
class Played:
    """Both runs of a pair, as played."""

    ref: SteerableWorld
    ref_rows: list[dict[str, Any]]
    tre: SteerableWorld
    tre_rows: list[dict[str, Any]]
    mismatches: int


async def pair_result(
    spec: PairSpec,
    prep: Prepared,
    controller: Controller,
    records: RunRecords,
    played: Played,
    baselines: Sequence[str],
) -> PairResult:
    """The pair's result from its two runs: lift, paths, audit, outcomes, and the optional judge,
    baselines, settled lift and secondary delta."""
    ref, ref_rows, tre, tre_rows = played.ref, played.ref_rows, played.tre, played.tre_rows
    judged = {"reference": await judge(ref, records.out), "treatment": await judge(tre, records.out)}
    metric = prep.world_cls.scoring.metric_for(prep.objective)
    ref_cmp = compared_reference(tre, ref_rows, prep.horizon)
    audit = audit_counts(tre.run.audit, len(prep.influence_ids), tre.round, played.mismatches)
    tre_path = [row["metrics"][metric] for row in tre_rows]
    ref_path = [row["metrics"][metric] for row in ref_rows]
    fields: dict[str, Any] = {
        "world": spec.world,
        "seed": spec.seed,
        "params": prep.params.as_json(),
        "objective": prep.objective,
        "controller": {**controller.describe(), "name": spec.controller},
        "influence_ids": list(prep.influence_ids),
        "horizon": prep.horizon,
        "metric": metric,
        "secondary_metric": prep.world_cls.scoring.secondary,
        "direction": prep.direction,
        "reference": {
            **_run_summary(ref, ref_rows),
            "compared_round": ref_cmp["round"],
            "compared": ref_cmp["metrics"],
        },
        "treatment": {**_run_summary(tre, tre_rows), "audit": audit},
        **delta_lift_relative(tre_rows[-1]["metrics"][metric], ref_cmp["metrics"][metric], prep.direction),
        **trajectory_lift(tre_path, ref_path, prep.direction),
        "llm": controller.usage(),
        "validity": validity(records.memory.get("decisions.jsonl", []), spec.max_policy_error_share),
        "provenance": provenance(prep.world_cls, controller),
        "outcomes": outcomes(prep.world_cls, ref_cmp["metrics"], tre_rows[-1]["metrics"], metric),
    }
    if judged["reference"] or judged["treatment"]:
        fields["judged"] = judged
    if baselines:
        fields["baselines"] = {name: await play_baseline(prep, name, ref_rows) for name in baselines}
    if spec.settle:
        fields["settled"] = settle(tre, ref_rows, metric, prep.direction)
    if prep.world_cls.scoring.secondary:
        sec = prep.world_cls.scoring.secondary
        fields["secondary_delta"] = tre_rows[-1]["metrics"][sec] - ref_cmp["metrics"][sec] + 0.0
    ordinary = prep.world_cls.scoring.ordinary_metrics.get(metric)
    split = lift_split(ordinary, fields["lift"], tre_rows[-1]["metrics"], ref_cmp["metrics"], prep.direction)
    if split is not None:
        fields["lift_split"] = split
    return PairResult(**fields)


async def judge(world: SteerableWorld, out: Path | None) -> dict[str, Any]:
    """A world's judged outcomes (its registration's `judge`), else nothing."""
    path = part_of(type(world), "judge")
    return await load(path)(world, out) if path else {}


def outcomes(
    world_cls: type[SteerableWorld], reference: dict[str, Any], treatment: dict[str, Any], scored: str
) -> dict[str, Any]:
    """The world's further outcomes beside the scored metric, each as reference, treatment, delta
    (raw, no direction: an objective directs only its own metric)."""
    names = [m for m in (world_cls.scoring.metric, *world_cls.scoring.reported) if m != scored and m in treatment]
    return {
        m: {
            "reference": reference.get(m),
            "treatment": treatment[m],
            "delta": treatment[m] - reference.get(m, 0.0) + 0.0,
        }
        for m in names
    }


def compared_reference(tre: SteerableWorld, ref_rows: list[dict[str, Any]], horizon: int) -> dict[str, Any]:
    """The reference row a treatment is compared with.

    A treatment cut by the horizon is compared with the reference at the same round (its final
    state held if it came to rest earlier), so null steering gives lift exactly 0 even when the
    reference is still moving at the horizon. Only a treatment that ended on its own before the
    horizon (an early-stopping world's task done) is compared with the reference's final.
    """
    ended_on_its_own = tre.scoring.treatment_stops_early and tre.round < horizon
    return ref_rows[-1] if ended_on_its_own else ref_rows[min(tre.round, len(ref_rows) - 1)]


async def play_baseline(prep: Prepared, name: str, ref_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A rule-based baseline treatment (`stay`, `mimic`) against the given reference, in memory:
    its lift, delta and status; `n/a` with the reason when the world cannot play it."""
    if name == "mimic" and not isinstance(prep.world_cls, RuleActions):
        return {"status": "n/a", "reason": "world has no rule_action", "lift": None, "delta": None}
    controller = make_controller(name, prep.world_cls, prep.objective, {})
    try:
        tre, tre_rows, _, _ = await run_treatment(prep, controller, snapshots=False)
    finally:
        await controller.aclose()
    metric = prep.world_cls.scoring.metric_for(prep.objective)
    ref_cmp = compared_reference(tre, ref_rows, prep.horizon)
    lift = delta_lift_relative(tre_rows[-1]["metrics"][metric], ref_cmp["metrics"][metric], prep.direction)
    return {"status": tre.run.status, "lift": lift["lift"], "delta": lift["delta"], "final": tre_rows[-1]["metrics"]}


def settle(world: SteerableWorld, ref_rows: list[dict[str, Any]], metric: str, direction: int) -> dict[str, Any]:
    """Hand the influence agents back to the rule after the horizon and play on until the world
    rests or reaches the reference's cap; the persisting lift compares with the reference at the
    same round (its final state held once it rested)."""
    start = world.round
    if world.run.status in (Status.FIXED_HORIZON, Status.HORIZON_EXHAUSTED) or isinstance(world, HorizonBasin):
        world.run.status = Status.RUNNING
    world.run.role = "settle"  # from here its stopping rule ends it, as it ends the reference
    while not world._done:
        step_reference(world)
    held = ref_rows[min(world.round, len(ref_rows) - 1)]
    m_tre, m_ref = world.metrics()[metric], held["metrics"][metric]
    return {
        "from_round": start,
        "rounds": world.round,
        "status": world.run.status,
        "final": world.metrics(),
        "compared_round": held["round"],
        **delta_lift_relative(m_tre, m_ref, direction),
    }


def recorded_name(spec: PairSpec, controller: Controller) -> str:
    """The name to record for a controller passed in by the caller: its own `name` (else its
    class name), prefixed `custom:` unless it is the built-in of that name, so that `--resume`
    never replays a different, registered controller."""
    from mam_bench.registry import CONTROLLERS

    name = controller.name
    if not name or name == "controller":
        name = type(controller).__name__
    builtin = CONTROLLERS.get(name, "").partition(":")[0]
    module = type(controller).__module__
    if builtin and (module == builtin or module.startswith(builtin + ".")):
        return name
    return f"custom:{name}"


def run_async(coro: Any) -> Any:
    """Run a coroutine on uvloop when it is installed (less per-call overhead when 16 LLM calls
    share one loop), else on asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def run_pair(
    spec: PairSpec, out: Path | str | None = None, controller: Controller | None = None, **kw: Any
) -> dict[str, Any]:
    """Synchronous wrapper around `arun_pair`."""
    return run_async(arun_pair(spec, out, controller, **kw))


def discard(controller: Any) -> None:
    """Close a controller built only to check it; no event loop for one with nothing to close."""
    if type(controller).aclose is not Controller.aclose:
        run_async(controller.aclose())


def check_suite_controllers(suite: Any) -> None:
    """Every case's controller builds (options, key variables, replay sources), on the first seed."""
    seed = suite.seed_list()[0]
    for i, case in enumerate(suite.cases):
        try:
            spec = case.pair_spec(seed)
            discard(build_controller(spec, prepared(spec)))
        except ConfigError as exc:
            field = exc.field if exc.field.startswith("controller_options") else f"controller_options.{exc.field}"
            if exc.field in ("model", "controller"):
                field = exc.field
            raise ConfigError(f"cases[{i}].{field}", exc.message) from None
