"""What a fork costs against one round of the same world, at two sizes, and the oracle's pair on the v2 quick tier.

Usage: python bench/fork.py [--repeats 7] [--warm 3] [--worlds schelling,voter] [--no-oracle] [--jobs N]
For every world (its default influence agents, after `--warm` rounds), at its default size and at a
larger one, all measured in the same run as the best of `--repeats` timings:
  fork      one `fork()`;
  round     one round played by a world that was never forked (every influence agent on the rule);
  first     the first round played on a fresh fork (it rebuilds what a fork leaves to be rebuilt
            lazily, e.g. Mesa's cached neighbourhoods);
  cost      what a fork adds to a planner's rollout: fork + first - round;
  ratio     cost / round (the goal is at most 1); fork/round beside it.
Then the wall time of the oracle's pair (reference, treatment and the planning, no baselines) on v2
quick-tier scenarios with the benchmark's planner options (suites/benchmark-v2.yaml), in this
process or, with `--jobs N`, its rollouts on N worker processes.
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Any

from mam_bench.registry import get_world, world_names
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round

#: per world, the larger size measured beside the default (linear size doubled, agents with it)
LARGER: dict[str, dict[str, Any]] = {
    "boltzmann": {"n": 200},
    "civil_violence": {"size": 24},
    "civil_violence_cascade": {"size": 40},
    "crafting": {"task": "grand_armory"},  # 20 agents against 10
    "schelling": {"size": 40},
    "voter": {"n": 240},
    **{
        task: {"size": 20, "agents": 40} for task in ("flocking", "foraging", "pursuit", "synchronization", "transport")
    },
}
#: v2 quick-tier scenarios: (world, objective, rounds), 2 influence agents, the benchmark's planner
V2_QUICK = (("schelling", "integrate", 5), ("pursuit", "hinder", 30), ("voter", "suppress", 5))
PLANNER = {"candidates": 0, "sweeps": 1, "lookahead": 2}


def best(repeats: int, timed) -> float:
    out = float("inf")
    for _ in range(repeats):
        gc.collect()
        out = min(out, timed())
    return out


def fork_and_round(name: str, params: dict[str, Any], warm: int, repeats: int) -> tuple[float, float, float]:
    cls = get_world(name)
    p = cls.Params(**params)
    ids = cls(p, seed=0)._default_influence_ids(cls._influence_count(p))

    def warmed() -> Any:
        world = cls(p, seed=0, influence_ids=ids, role="treatment")
        for _ in range(warm):
            play_round(world)
        return world

    world = warmed()
    spares = [warmed() for _ in range(repeats)]

    def fork() -> float:
        start = time.perf_counter()
        fork(world)
        return time.perf_counter() - start

    def one_round(fresh: Any) -> float:
        start = time.perf_counter()
        play_round(fresh)
        return time.perf_counter() - start

    return (
        best(repeats, fork),
        best(repeats, lambda: one_round(spares.pop())),
        best(repeats, lambda: one_round(fork(world))),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--warm", type=int, default=3)
    ap.add_argument("--worlds", help="comma-separated worlds (default: every registered world)")
    ap.add_argument("--no-oracle", action="store_true", help="skip the oracle pairs")
    ap.add_argument("--jobs", type=int, help="the oracle's rollouts on this many worker processes")
    args = ap.parse_args()
    names = args.worlds.split(",") if args.worlds else world_names()
    head = ("fork ms", "round ms", "first ms", "cost ms", "ratio", "fork/round")
    print(f"{'world':24s} {'size':28s} " + " ".join(f"{h:>9s}" for h in head))
    for name in names:
        for params in ({}, LARGER.get(name)):
            if params is None:
                continue
            fork, one, first = fork_and_round(name, params, args.warm, args.repeats)
            cost = fork + first - one
            label = ",".join(f"{k}={v}" for k, v in params.items()) or "default"
            print(
                f"{name:24s} {label:28s} {fork * 1e3:9.2f} {one * 1e3:9.2f} {first * 1e3:9.2f} "
                f"{cost * 1e3:9.2f} {cost / one:9.2f} {fork / one:9.2f}"
            )
    if args.no_oracle:
        return
    where = f"rollouts on {args.jobs} jobs" if args.jobs else "rollouts in process"
    print(f"\noracle pair, v2 quick tier ({PLANNER}, seed 1000, {where})")
    print(f"{'scenario':24s} {'rounds':>6s} {'seconds':>8s} {'rollouts':>8s} {'lift':>8s}")
    for world, objective, rounds in V2_QUICK:
        options = {**PLANNER, **({"jobs": args.jobs} if args.jobs else {})}
        spec = PairSpec.build(
            world=world,
            seed=1000,
            objective=objective,
            controller="oracle",
            influence=2,
            rounds=rounds,
            controller_options=options,
        )
        start = time.perf_counter()
        result = run_pair(spec)
        seconds = time.perf_counter() - start
        rollouts = result["llm"]["planning"]["rollouts"]
        print(f"{world + '-' + objective:24s} {rounds:6d} {seconds:8.2f} {rollouts!s:>8s} {result['lift']:+8.4f}")


if __name__ == "__main__":
    main()
