"""The oracle's rollouts as executor jobs: the same `--jobs` pool or Ray cluster experiments use.

A job is plain JSON: how to build the treatment (world, params, seed, objective, influence ids),
the decisions played in it so far, and the plans to score. A worker builds the treatment and
replays those decisions (the world is deterministic given its seed and decisions), checks that
it stands where the live world stands, and rolls each plan out on a fork of it, exactly as the
planner does in its own process; so a plan scores the same on any executor. A worker keeps its
replayed world for the next job of the same pair and only plays the rounds it has not seen.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.protocol import Decision

#: the job function executors call (mam_bench.experiment.executors.run_job)
CALL = "mam_bench.steering.rollout_jobs:run"

#: per worker process: pair key -> (the decisions replayed, the treatment they led to)
_LIVE: dict[str, tuple[list[Any], Any]] = {}


class Pool:
    """The executor a planner hands its rollouts to: made on first use, each batch of plans split
    over its slots in order, the values returned in the order of the plans."""

    def __init__(self, executor: str, address: str | None, jobs: int | None):
        from mam_bench.limits import MAX_JOBS

        if executor not in ("local", "ray"):
            raise ConfigError("executor", f"unknown executor {executor!r} (known: local, ray)")
        if jobs is not None and not 1 <= jobs <= MAX_JOBS:
            raise ConfigError("jobs", f"must be between 1 and {MAX_JOBS}")
        self.settings = (executor, address, jobs)
        self._executor: Any = None

    def score(self, job: dict[str, Any], n: int) -> list[list[float]]:
        from mam_bench.experiment.executors import make_executor

        self._executor = self._executor or make_executor(*self.settings)
        size = -(-n // self._executor.slots)
        handles = [self._executor.submit({**job, "plans": job["plans"][i : i + size]}) for i in range(0, n, size)]
        done: dict[Any, list[list[float]]] = {}
        while len(done) < len(handles):
            for handle, values, exc in self._executor.wait([h for h in handles if h not in done], 60.0):
                if exc is not None:
                    raise RuntimeError(f"a rollout job failed: {exc}") from exc
                done[handle] = values
        return [v for h in handles for v in done[h]]

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None


def digest(world: Any) -> str:
    """What the live world and its replay must agree on: round, metrics and snapshot."""
    from mam_bench.runner import round_row

    return hashlib.sha256(json.dumps(round_row(world), sort_keys=True, default=str).encode()).hexdigest()


def job(planner: Any, world: Any, end: int, plans: list[tuple[Any, str]]) -> dict[str, Any]:
    """The job that scores `plans` on `world` (the live treatment `planner` has played so far)."""
    return {
        "call": CALL,
        "pair": {
            "world": planner.world_name,
            "seed": world.seed,
            "params": world.params.model_dump(mode="json"),
            "objective": planner.objective,
            "influence_ids": list(world.run.influence_ids),
        },
        "options": planner.options.model_dump(mode="json"),
        "played": [_round_json(r) for r in planner.played[: world.round]],
        "at": digest(world),
        "end": end,
        "plans": [[None if first is None else _script_json(first), tail] for first, tail in plans],
    }


def run(job: dict[str, Any]) -> list[list[float]]:
    """A worker's side: each plan's value, in the order given."""
    return asyncio.run(_run(job))


async def _run(job: dict[str, Any]) -> list[list[float]]:
    from mam_bench.registry import get_world
    from mam_bench.steering.oracle import OracleController

    pair = job["pair"]
    planner = OracleController(get_world(pair["world"]), pair["objective"], **job["options"])
    planner.bind(pair["world"], pair["objective"], pair["seed"])
    world = await _replayed(planner, pair, [_round_of(r) for r in job["played"]])
    if digest(world) != job["at"]:
        raise RuntimeError(f"the replayed treatment differs from the live one at round {world.round}")
    values = []
    for first, tail in job["plans"]:
        values.append(
            list(await planner.rollout(world, job["end"], None if first is None else _script_of(first), tail))
        )
    return values


async def _replayed(planner: Any, pair: dict[str, Any], played: list[dict[int, Decision]]) -> Any:
    """The treatment after `played`, from this worker's copy where it has one on the way there."""
    from mam_bench.runner import PairSpec, prepare
    from mam_bench.steering.oracle import Preset

    key = json.dumps(pair, sort_keys=True)
    seen, world = _LIVE.get(key, (None, None))
    if seen is None or seen != played[: len(seen)]:
        seen, world = [], prepare(PairSpec.build(controller="rule", **pair)).new_world(treatment=True)
    for decisions in played[len(seen) :]:
        await planner.play(world, Preset(decisions))
    _LIVE.clear()  # one pair at a time per worker: nothing piles up
    _LIVE[key] = (played, world)
    return world


def _round_json(decisions: dict[int, Decision]) -> dict[str, Any]:
    return {str(aid): d.model_dump(mode="json") for aid, d in decisions.items()}


def _round_of(data: dict[str, Any]) -> dict[int, Decision]:
    return {int(aid): Decision.model_validate(d) for aid, d in data.items()}


def _script_json(first: Any) -> Any:
    """One round's joint action as before, or a script (the joint actions of several rounds) as a list."""
    return _round_json(first) if isinstance(first, dict) else [_round_json(r) for r in first]


def _script_of(data: Any) -> Any:
    return _round_of(data) if isinstance(data, dict) else tuple(_round_of(r) for r in data)
