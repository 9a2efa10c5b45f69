"""What one of the oracle's rollouts costs on the Civil Violence cascade at the benchmark's doses
(suites/benchmark-v3.yaml, cascade-*), by board size: ms per `fork()` and per round played on the
fork under each tail the oracle scores (rule, stay, heuristic: the influence agents asked as the
runner asks them), and greedy's joint action for one round (candidates 8: null, rule and random).

Measured 2026-12-07 on the busy 2-core machine (load 11 before, 5 after), citizen dose, ms per fork /
per rule round / per heuristic round / per greedy joint action: before the cached slots, sight counts
and shallow fork, 17.6 / 64 / 87 / 10047 at size 20 (0.7 / 18 / 21 / 2935 at 10, 18 / 140 / 166 /
31109 at 30); after, 0.2 / 6.0 / 11 / 719 at 20 (0.3 / 5.0 / 3.2 / 252 at 10, 0.3 / 15 / 14 / 1113
at 30); police at 20 after: 0.5 / 23 / 12 / 793. A rollout replays rounds whose slots it has seen,
so after the first rollout its draws are looked up, not hashed (what these figures include).

Run: `python -m bench.cascade_rollout [--sizes 10,20,30] [--role citizen|police] [--reps 3]
[--profile N]`; `--profile N` prints cProfile's top N functions (cumulative) of the size-20 rollouts.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import time

from mam_bench.runner import PairSpec, prepare
from mam_bench.steering.greedy import GreedyOptions, greedy_joint
from mam_bench.steering.oracle import OracleController
from mam_bench.world import fork, play_round

#: the two doses of suites/benchmark-v3.yaml (cascade-citizen-* and cascade-police-*)
DOSES = {
    "citizen": {"controlled_role": "citizen", "citizen_density": 0.54, "police_density": 0.055, "threshold": 0.0},
    "police": {
        "controlled_role": "police",
        "citizen_density": 0.54,
        "police_density": 0.05,
        "threshold": 1.0,
        "max_jail": 6,
    },
}
TAILS = ("rule", "stay", "heuristic")


def live_world(role: str, size: int, start: int = 3):
    """The treatment world of seed 1000 after `start` rounds on the rule, 16 influence agents."""
    params = {**DOSES[role], "size": size}
    spec = PairSpec.build(world="civil_violence_cascade", seed=1000, params=params, influence=16, objective="increase")
    world = prepare(spec).new_world(treatment=True)
    for _ in range(start):
        play_round(world)
    return world


def planner(world) -> OracleController:
    oracle = OracleController(type(world), "increase")
    oracle.bind(world.name, "increase", 1000)
    return oracle


def time_rollouts(role: str, size: int, reps: int, rounds: int = 5) -> dict[str, float]:
    """ms per fork, per round under each tail, and per greedy joint action."""
    world = live_world(role, size)
    oracle = planner(world)
    out: dict[str, float] = {}
    start = time.perf_counter()
    for _ in range(reps):
        fork(world)
    out["fork"] = 1000 * (time.perf_counter() - start) / reps
    for tail in TAILS:
        start = time.perf_counter()
        for _ in range(reps):
            asyncio.run(oracle.rollout(world, world.round + rounds, None, tail))
        out[tail] = 1000 * ((time.perf_counter() - start) / reps - out["fork"] / 1000) / rounds
    start = time.perf_counter()
    asyncio.run(greedy_joint(oracle, world, GreedyOptions()))
    out["greedy"] = 1000 * (time.perf_counter() - start)
    return out


def profile(role: str, top: int) -> None:
    world = live_world(role, 20)
    oracle = planner(world)

    async def work() -> None:
        for tail in TAILS:
            await oracle.rollout(world, world.round + 10, None, tail)
        await greedy_joint(oracle, world, GreedyOptions())

    prof = cProfile.Profile()
    prof.enable()
    asyncio.run(work())
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,20,30")
    parser.add_argument("--role", choices=tuple(DOSES), default="citizen")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--profile", type=int, default=0)
    args = parser.parse_args()
    if args.profile:
        profile(args.role, args.profile)
        return
    print(f"{args.role}: ms per fork, per round under each tail (5 rounds), per greedy joint action")
    print(f"{'size':>5} {'fork':>8} " + " ".join(f"{t:>10}" for t in TAILS) + f" {'greedy':>10}")
    for size in (int(s) for s in args.sizes.split(",")):
        t = time_rollouts(args.role, size, args.reps)
        print(f"{size:>5} {t['fork']:>8.1f} " + " ".join(f"{t[x]:>10.1f}" for x in TAILS) + f" {t['greedy']:>10.0f}")


if __name__ == "__main__":
    main()
