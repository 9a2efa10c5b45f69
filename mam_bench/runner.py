"""The paired runner: the same seeded world twice, reference (all rule) and treatment.

Everything is validated before the first round is played: world, parameters, objective,
influence ids, output folder. The treatment follows the round protocol of design.md:
coordination (posts), decision (concurrent), resolution, metrics and records.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from mam_bench.audit import audit_counts
from mam_bench.board import CoordinationBoard
from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError, config_error_from
from mam_bench.outcome import delta_lift_relative, trajectory_lift
from mam_bench.params import WorldParams
from mam_bench.records import RunRecords
from mam_bench.registry import get_world, make_controller


class PairSpec(BaseModel):
    """One paired experiment. Validated whole before any work."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    world: str
    seed: int = Field(0, ge=0)
    params: dict[str, Any] = Field(default_factory=dict)
    objective: str | None = None
    policy: str = "rule"
    influence: int | None = Field(None, ge=0)
    influence_ids: tuple[int, ...] | None = None
    rounds: int | None = Field(None, ge=1)
    board_window: int = Field(3, ge=1)
    post_cap: int = Field(4000, ge=1)
    controller_options: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_influence_form(self) -> "PairSpec":
        if self.influence is not None and self.influence_ids is not None:
            raise ValueError("give either influence or influence_ids, not both")
        return self

    @classmethod
    def build(cls, **kw: Any) -> "PairSpec":
        try:
            return cls(**kw)
        except ValidationError as exc:
            raise config_error_from(exc) from None


@dataclass
class Prepared:
    """A spec resolved against its world: every check passed."""

    spec: PairSpec
    world_cls: Any
    params: WorldParams
    objective: str
    direction: int
    influence_ids: tuple[int, ...]
    rounds: int

    def new_world(self, treatment: bool) -> Any:
        ids = self.influence_ids if treatment else ()
        world = self.world_cls(
            self.params, seed=self.spec.seed, influence_ids=ids, mask_ids=self.influence_ids,
            role="treatment" if treatment else "reference",
        )
        world.objective = self.objective
        return world


def prepare(spec: PairSpec) -> Prepared:
    """Resolve and check a spec; raises ConfigError naming the field on any problem."""
    world_cls = get_world(spec.world)
    params = world_cls.Params.from_strings(spec.params) if not isinstance(spec.params, WorldParams) else spec.params
    objective = spec.objective or world_cls.default_objective
    if objective not in world_cls.objectives:
        raise ConfigError("objective", f"{objective!r} is not an objective of {spec.world} "
                          f"(known: {', '.join(world_cls.objectives)})")
    probe = world_cls(params, seed=spec.seed)
    if spec.influence_ids is not None:
        ids = probe.check_influence(spec.influence_ids)
    else:
        n = spec.influence if spec.influence is not None else getattr(params, "influence", None)
        if n is None:
            n = getattr(world_cls, "default_influence", 2)
        if n > len(probe.actor_ids()):
            raise ConfigError("influence", f"{n} influence agents but only {len(probe.actor_ids())} agents")
        ids = probe.check_influence(probe.default_influence_ids(n))
    rounds = spec.rounds or probe.treatment_rounds()
    return Prepared(spec, world_cls, params, objective, world_cls.objectives[objective], ids, rounds)


def _round_row(world: Any) -> dict[str, Any]:
    return {"round": world.round, "status": world.status, "metrics": world.metrics(), **world.snapshot()}


def run_reference(prep: Prepared, records: RunRecords | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """All-rule run until the world is done or its cap; the final state is then held."""
    world = prep.new_world(treatment=False)
    cap = world.reference_cap()
    rows = [_round_row(world)]
    while not world.done and world.round < cap:
        before = world.round
        world.play_round()
        if world.round > before:
            rows.append(_round_row(world))
        else:
            rows[-1]["status"] = world.status
            if not world.done:
                break
    if not world.done:
        world.status = "horizon_exhausted"
        rows[-1]["status"] = world.status
    if records is not None:
        for row in rows:
            records.append("reference.jsonl", row)
    return world, rows


async def run_treatment(
    prep: Prepared,
    controller: Controller,
    records: RunRecords | None = None,
    on_round: Callable[[int, Any], None] | None = None,
) -> tuple[Any, list[dict[str, Any]], CoordinationBoard, int]:
    """The treatment: coordination, concurrent decisions, resolution, records; round by round."""
    world = prep.new_world(treatment=True)
    board_on = bool(getattr(prep.params, "board", True))
    board = CoordinationBoard(window=prep.spec.board_window, post_cap=prep.spec.post_cap, enabled=board_on)
    controller.bind(prep.spec.world, prep.objective, prep.spec.seed)
    ids = prep.influence_ids
    history: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    rows = [_round_row(world)]
    if records is not None:
        records.append("treatment.jsonl", rows[0])
    mismatches = 0
    for r in range(prep.rounds):
        if world.done and world.treatment_stops_early:
            break
        window = prep.spec.board_window

        def requests(phase: str) -> list[Request]:
            return [
                Request(
                    world=prep.spec.world, actor_id=aid, round=r, objective=prep.objective,
                    observation=world.observe(aid), board=board.view(r), phase=phase,
                    history=tuple(h for h in history[aid] if h["round"] > r - window - 1),
                )
                for aid in ids
            ]

        posts: dict[int, str] = {}
        if controller.posts and ids:
            texts = await controller.post(requests("coordination"))
            for aid, text in zip(ids, texts):
                if text:
                    entry = board.post(r, aid, text)
                    posts[aid] = entry.text if entry else str(text)
        decisions = await controller.decide(requests("decision")) if ids else []
        by_id: dict[int, Decision] = dict(zip(ids, decisions))
        entries = world.play_round(by_id)
        for fact in world.facts(entries):
            board.fact(r, fact)
        for e in entries:
            d = by_id.get(e.actor_id, Decision.follow_rule())
            post = posts.get(e.actor_id)
            declared = world.declared_action(e.actor_id, post) if post else None
            mismatch = declared is not None and not world.same_action(declared, e.proposal)
            mismatches += int(mismatch)
            history[e.actor_id].append(
                {"round": r, "post": post, "action": e.proposal, "outcome": e.outcome, "message": d.message}
            )
            if records is not None:
                records.append("decisions.jsonl", {
                    "round": r, "actor_id": e.actor_id, "post": post, "action": e.proposal,
                    "decision": d.action, "message": d.message, "outcome": e.outcome, "detail": e.detail,
                    "deferred": e.deferred, "error": d.error, "raw": d.raw,
                    "declared": declared, "mismatch": mismatch,
                })
        row = _round_row(world)
        rows.append(row)
        if records is not None:
            records.append("treatment.jsonl", row)
        if on_round is not None:
            on_round(r, world)
    if world.status == "running":
        world.status = "fixed_horizon" if not world.treatment_stops_early else "horizon_exhausted"
        rows[-1]["status"] = world.status
    return world, rows, board, mismatches


def _run_summary(world: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "status": world.status,
        "rounds": world.round,
        "initial": rows[0]["metrics"],
        "final": rows[-1]["metrics"],
    }


async def arun_pair(
    spec: PairSpec,
    out: Path | str | None = None,
    controller: Controller | None = None,
    prep: Prepared | None = None,
    on_round: Callable[[int, Any], None] | None = None,
    resume: bool = False,
) -> dict[str, Any]:
    prep = prep or prepare(spec)
    records = RunRecords(out, resume=False)
    if controller is None:
        controller = make_controller(spec.policy, prep.world_cls, prep.objective, spec.controller_options)
    attach = getattr(controller, "attach_records", None)
    if callable(attach):  # LLM controllers write llm_calls.jsonl into the run's records
        attach(records)
    records.write_json("spec.json", spec.model_dump(mode="json"))
    started = time.perf_counter()
    try:
        ref, ref_rows = run_reference(prep, records)
        tre, tre_rows, board, mismatches = await run_treatment(prep, controller, records, on_round)
    finally:
        records.close()
        await controller.aclose()
    board.to_jsonl(records.out / "board.jsonl") if records.out else None
    metric = prep.world_cls.primary_metric
    # A fixed-horizon treatment is compared with the reference at the same round (its final
    # state held if it came to rest earlier), so null steering gives lift exactly 0 even when
    # the reference is still moving at the horizon; early-stopping worlds compare finals.
    ref_cmp = ref_rows[-1] if tre.treatment_stops_early else ref_rows[min(tre.round, len(ref_rows) - 1)]
    m_ref = ref_cmp["metrics"][metric]
    m_tre = tre_rows[-1]["metrics"][metric]
    audit = audit_counts(tre.audit, len(prep.influence_ids), tre.round, mismatches)
    result = {
        "world": spec.world,
        "seed": spec.seed,
        "params": prep.params.as_json(),
        "objective": prep.objective,
        "policy": spec.policy,
        "controller": controller.describe(),
        "influence_ids": list(prep.influence_ids),
        "metric": metric,
        "secondary_metric": prep.world_cls.secondary_metric,
        "direction": prep.direction,
        "reference": {**_run_summary(ref, ref_rows), "compared_round": ref_cmp["round"], "compared": ref_cmp["metrics"]},
        "treatment": {**_run_summary(tre, tre_rows), "audit": audit},
        **delta_lift_relative(m_tre, m_ref, prep.direction),
        **trajectory_lift([row["metrics"][metric] for row in tre_rows], m_ref, prep.direction),
        "llm": controller.usage(),
    }
    if prep.world_cls.secondary_metric:
        sec = prep.world_cls.secondary_metric
        result["secondary_delta"] = tre_rows[-1]["metrics"][sec] - ref_cmp["metrics"][sec] + 0.0
    records.write_json("result.json", result)
    result["_wall_seconds"] = time.perf_counter() - started
    session = getattr(controller, "session_usage", None)
    if callable(session):  # cache hits, retries, latency: for the printed table, not result.json
        result["llm"] = {**result["llm"], **session()}
    return result


def run_pair(spec: PairSpec, out: Path | str | None = None, controller: Controller | None = None, **kw: Any) -> dict[str, Any]:
    """Synchronous wrapper around `arun_pair`."""
    return asyncio.run(arun_pair(spec, out, controller, **kw))
