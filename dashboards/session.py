"""A live pair stepped in lockstep: the reference and the treatment advance one round per Step.

The treatment round follows the runner's protocol (coordination, concurrent decisions,
resolution, mismatch check) but one round at a time, so the dashboard can pause between rounds.
Rows have the same shape as `reference.jsonl` / `treatment.jsonl`, and feed entries the same
shape as `decisions.jsonl`, so renderers never need to know whether a pair is live or replayed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from dataclasses import dataclass, field
from typing import Any, Awaitable, TypeVar

from mam_bench.board import CoordinationBoard
from mam_bench.controller import Decision, Request
from mam_bench.outcome import delta_lift_relative
from mam_bench.registry import make_controller
from mam_bench.runner import PairSpec, Prepared, prepare

T = TypeVar("T")


def run_sync(coro: Awaitable[T]) -> T:
    """Await from synchronous UI code, even when the calling thread already runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)  # type: ignore[arg-type]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()  # type: ignore[arg-type]


def round_row(world: Any) -> dict[str, Any]:
    """One record row, as the runner writes it."""
    return {"round": world.round, "status": world.status, "metrics": dict(world.metrics()), **world.snapshot()}


@dataclass
class PairInfo:
    """What renderers need to know about a pair besides its rows."""

    world: str
    seed: int
    objective: str
    direction: int
    primary: str
    secondary: str | None
    influence_ids: tuple[int, ...]
    params: dict[str, Any]
    horizon: int
    policy: str
    world_cls: Any = None


@dataclass
class PairState:
    """Everything a view draws: both runs' rows, the feed, and where the pair stands."""

    info: PairInfo
    reference: list[dict[str, Any]] = field(default_factory=list)
    treatment: list[dict[str, Any]] = field(default_factory=list)
    #: decisions.jsonl-shaped entries (round, actor_id, post, action, outcome, mismatch)
    feed: list[dict[str, Any]] = field(default_factory=list)
    #: authoritative board facts per round
    facts: dict[int, list[str]] = field(default_factory=dict)

    @property
    def round(self) -> int:
        return len(self.treatment) - 1

    def lift(self) -> dict[str, float | None]:
        """Delta, lift and relative of the primary metric at the current round (reference held)."""
        m = self.info.primary
        return delta_lift_relative(self.treatment[-1]["metrics"][m], self.reference[-1]["metrics"][m], self.info.direction)


class PairSession:
    """A live pair: one reference world and one treatment world, stepped together."""

    def __init__(self, spec: PairSpec):
        self.spec = spec
        self.prep: Prepared = prepare(spec)
        p = self.prep
        self.controller = make_controller(spec.policy, p.world_cls, p.objective, spec.controller_options)
        self.reset()

    def reset(self) -> None:
        p = self.prep
        self.ref_world = p.new_world(treatment=False)
        self.tre_world = p.new_world(treatment=True)
        self.controller.bind(self.spec.world, p.objective, self.spec.seed)
        board_on = bool(getattr(p.params, "board", True))
        self.board = CoordinationBoard(window=self.spec.board_window, post_cap=self.spec.post_cap, enabled=board_on)
        self.history: dict[int, list[dict[str, Any]]] = {i: [] for i in p.influence_ids}
        info = PairInfo(
            world=self.spec.world, seed=self.spec.seed, objective=p.objective, direction=p.direction,
            primary=p.world_cls.primary_metric, secondary=p.world_cls.secondary_metric,
            influence_ids=p.influence_ids, params=p.params.as_json(), horizon=p.rounds,
            policy=self.spec.policy, world_cls=p.world_cls,
        )
        self.state = PairState(info, [round_row(self.ref_world)], [round_row(self.tre_world)])

    @property
    def finished(self) -> bool:
        tre = self.tre_world
        return self.state.round >= self.prep.rounds or (tre.done and tre.treatment_stops_early)

    def step(self) -> bool:
        """Play one round of both runs; False when the treatment has reached its end."""
        if self.finished:
            return False
        self._step_reference()
        run_sync(self._step_treatment())
        return True

    def _step_reference(self) -> None:
        """The reference plays until it is done, then its final state is held."""
        world, rows = self.ref_world, self.state.reference
        if not world.done and world.round < world.reference_cap():
            before = world.round
            world.play_round()
            if world.round > before:
                rows.append(round_row(world))
                return
            rows[-1] = {**rows[-1], "status": world.status}
        rows.append({**rows[-1]})

    def _requests(self, phase: str, r: int) -> list[Request]:
        p, world = self.prep, self.tre_world
        window = self.spec.board_window
        return [
            Request(
                world=self.spec.world, actor_id=aid, round=r, objective=p.objective,
                observation=world.observe(aid), board=self.board.view(r), phase=phase,
                history=tuple(h for h in self.history[aid] if h["round"] > r - window - 1),
            )
            for aid in p.influence_ids
        ]

    async def _step_treatment(self) -> None:
        ids, world, r = self.prep.influence_ids, self.tre_world, self.state.round
        posts: dict[int, str] = {}
        if self.controller.posts and ids:
            texts = await self.controller.post(self._requests("coordination", r))
            for aid, text in zip(ids, texts):
                if text:
                    entry = self.board.post(r, aid, text)
                    posts[aid] = entry.text if entry else str(text)
        decisions = await self.controller.decide(self._requests("decision", r)) if ids else []
        by_id: dict[int, Decision] = dict(zip(ids, decisions))
        entries = world.play_round(by_id)
        self.state.facts[r] = list(world.facts(entries))
        for fact in self.state.facts[r]:
            self.board.fact(r, fact)
        for e in entries:
            d = by_id.get(e.actor_id, Decision.follow_rule())
            post = posts.get(e.actor_id)
            declared = world.declared_action(e.actor_id, post) if post else None
            mismatch = declared is not None and not world.same_action(declared, e.proposal)
            self.history[e.actor_id].append(
                {"round": r, "post": post, "action": e.proposal, "outcome": e.outcome, "message": d.message}
            )
            self.state.feed.append({
                "round": r, "actor_id": e.actor_id, "post": post, "action": e.proposal,
                "outcome": e.outcome, "detail": e.detail, "declared": declared, "mismatch": mismatch,
            })
        self.state.treatment.append(round_row(world))
