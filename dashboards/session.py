"""A live pair stepped in lockstep: the reference and the treatment advance one round per Step.

The treatment is the runner's own `Treatment` (coordination, concurrent decisions, resolution,
mismatch check), stepped one round at a time so the dashboard can pause between rounds.
Rows have the same shape as `reference.jsonl` / `treatment.jsonl`, and feed entries the same
shape as `decisions.jsonl`, so renderers never need to know whether a pair is live or replayed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from mam_bench import model_ids
from mam_bench.capabilities import RuleActions
from mam_bench.outcome import delta_lift_relative
from mam_bench.registry import make_controller
from mam_bench.runner import (
    PairSpec,
    Prepared,
    Treatment,
    prepare_run,
    round_row,
    run_treatment,
    step_reference,
)

#: the baselines a lift is shown beside (house rule), paired by seed: influence agents idle, or
#: doing what the rule would without deferring
BASELINES = ("stay", "mimic")

if TYPE_CHECKING:
    from mam_bench.world import SteerableWorld

T = TypeVar("T")


def run_sync(coro: Awaitable[T]) -> T:
    """Await from synchronous UI code, even when the calling thread already runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)  # type: ignore[arg-type]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()  # type: ignore[arg-type]


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
    controller: str
    world_cls: type[SteerableWorld] | None = None


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
        return delta_lift_relative(
            self.treatment[-1]["metrics"][m], self.reference[-1]["metrics"][m], self.info.direction
        )


class PairSession:
    """A live pair: the runner's reference and `Treatment`, stepped together one round at a time."""

    def __init__(self, spec: PairSpec):
        self.spec = spec
        self.prep: Prepared = prepare_run(spec)
        self.controller = self.prep.controller
        self._baselines: dict[str, list[dict[str, Any]]] | None = None
        self._baseline_lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        if hasattr(self, "treatment"):  # the pair played so far is finished
            model_ids.release(self.ref_world, self.treatment.world)
        p = self.prep
        self.ref_world = p.new_world(treatment=False)
        self.treatment = Treatment(p, self.controller)
        info = PairInfo(
            world=self.spec.world,
            seed=self.spec.seed,
            objective=p.objective,
            direction=p.direction,
            primary=p.world_cls.scoring.metric_for(p.objective),
            secondary=p.world_cls.scoring.secondary,
            influence_ids=p.influence_ids,
            params=p.params.as_json(),
            horizon=p.horizon,
            controller=self.spec.controller,
            world_cls=p.world_cls,
        )
        self.state = PairState(info, [round_row(self.ref_world)], self.treatment.rows, self.treatment.decisions)

    @property
    def finished(self) -> bool:
        return self.treatment.finished

    def step(self) -> bool:
        """Play one round of both runs; False when the treatment has reached its end."""
        if self.finished:
            return False
        self.step_reference()
        self.step_treatment()
        return True

    def step_reference(self) -> None:
        if step_reference(self.ref_world):
            self.state.reference.append(round_row(self.ref_world))
        else:  # at rest: hold the final state so both runs stay time-aligned
            self.state.reference.append({**self.state.reference[-1], "status": self.ref_world.run.status})

    def step_treatment(self) -> None:
        r = self.treatment.round
        run_sync(self.treatment.step())
        self.state.facts[r] = [
            e.text for e in self.treatment.board.entries if e.round == r and e.kind == "authoritative"
        ]

    def baselines(self) -> dict[str, list[dict[str, Any]]]:
        """Treatment rows of this very pair (seed, settings, influence ids) under `stay` and `mimic`,
        played to the end once per session with the runner's own treatment; Reset keeps them."""
        with self._baseline_lock:
            if self._baselines is None:
                out = {}
                for name in BASELINES:
                    if name == "mimic" and not isinstance(self.prep.world_cls, RuleActions):
                        continue  # shown as n/a: the world cannot say what its rule would do
                    prep = replace(self.prep, spec=self.spec.model_copy(update={"controller": name}))
                    controller = make_controller(name, prep.world_cls, prep.objective, {})
                    world, rows, _, _ = run_sync(run_treatment(prep, controller))
                    run_sync(controller.aclose())
                    model_ids.release(world)
                    out[name] = rows
                self._baselines = out
            return self._baselines

    def baseline_lifts(self) -> dict[str, dict[str, float | None]]:
        """Each baseline's lift at the current round, against the same reference row as the controller's."""
        st, m = self.state, self.state.info.primary
        ref = st.reference[-1]["metrics"][m]
        played = self.baselines()
        return {
            name: delta_lift_relative(
                played[name][min(st.round, len(played[name]) - 1)]["metrics"][m], ref, st.info.direction
            )
            if name in played
            else {"lift": None, "delta": None, "relative": None}
            for name in BASELINES
        }

    def close(self) -> None:
        """Release the controller's connections and cache, and the pair's worlds (a new seed or
        setting builds a new pair)."""
        run_sync(self.controller.aclose())
        model_ids.release(self.ref_world, self.treatment.world)
