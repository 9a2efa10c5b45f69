"""Schelling's two engines timed against each other in the same run, by board size: the residents'
own rule through Mesa's AgentSet (`engine=agents`) over the compiled wave (`engine=compiled`), for
our rule and for the pilot's (rule=pilot_v2, vision 1, threshold 7/10, vacancy 0.15: the benchmark's
dose, where the wave is `fast/pilot_wave.py`).

Prints, per rule and size, the seconds per reference run of each and their ratio; `engine=auto`
plays the residents' rule up to the largest size where the ratio stays below 2 (`AGENTS_UP_TO` and
`PILOT_AGENTS_UP_TO` in models/schelling/params.py). Measured 2026-12-07 on a busy 2-core machine,
3 seeds: ours 10.0 at size 8, 29 at 12, 77 at 16, 85 at 20, 216 at 30; the pilot's (a whole
reference, to rest or 30 rounds, its setup included) 7.0 at size 8, 5.1 at 12, 4.3 at 16, 9.0 at
20, 19 at 40 (size 30 has an odd population, which the pilot refuses); so at no size, for either
rule. A fork and a round, what a planner's rollouts replay (`--rounds 20`, 16 influence agents),
gain more: the pilot's 5.3 at size 8, 5.8 at 12, 26 at 20, 137 at 40 (ours 5.9, 12, 64, 223).
Run: `python -m bench.schelling_engines [--seeds 5] [--sizes 8,12,16,20,30,40] [--rules ours,pilot_v2]
[--rounds N]`.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from mam_bench.models.schelling.params import AGENTS_UP_TO, PILOT_AGENTS_UP_TO, SchellingParams
from mam_bench.runner import PairSpec, prepare, run_reference
from mam_bench.world import fork, play_round

#: the pilot's rule at the benchmark's dose (suites/benchmark-v3.yaml, schelling_pilot-*)
PILOT = {"rule": "pilot_v2", "vision": "1", "threshold": "7/10", "vacancy": "0.15", "rounds": "30"}


def _odd(size: int) -> bool:
    """The pilot's dose leaves an odd population at this size (the pilot refuses it)."""
    return SchellingParams.model_construct(size=size, vacancy=Fraction(3, 20)).n_agents % 2 == 1


def seconds(size: int, engine: str, seeds: int, rule: str = "ours") -> float:
    """Mean wall seconds of one reference run (rule only, to rest or its cap) at this size."""
    total = 0.0
    for seed in range(seeds):
        params = {"size": str(size), "engine": engine, **(PILOT if rule == "pilot_v2" else {})}
        spec = PairSpec.build(world="schelling", seed=seed, params=params, influence=0)
        prep = prepare(spec)
        start = time.perf_counter()
        run_reference(prep)
        total += time.perf_counter() - start
    return total / seeds


def round_seconds(size: int, engine: str, rule: str, reps: int) -> float:
    """Mean wall seconds of a fork and one round on it, 16 influence agents on the rule, from the
    third round of seed 0: what each of a planner's rollouts pays per round it replays."""
    params = {"size": str(size), "engine": engine, **(PILOT if rule == "pilot_v2" else {})}
    world = prepare(PairSpec.build(world="schelling", seed=0, params=params, influence=16)).new_world(treatment=True)
    play_round(world), play_round(world)
    start = time.perf_counter()
    for _ in range(reps):
        play_round(fork(world))
    return (time.perf_counter() - start) / reps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sizes", default="8,12,16,20,30,40")
    parser.add_argument("--rules", default="ours,pilot_v2")
    parser.add_argument("--rounds", type=int, default=0, help="time N forks and rounds instead of whole references")
    args = parser.parse_args()
    rules = args.rules.split(",")
    for rule in rules:  # compile each wave once before timing it
        seconds(8, "compiled", 1, rule)
    if args.rounds:
        print(f"{'rule':>8} {'size':>5} {'agents ms':>10} {'compiled ms':>12} {'ratio':>7}   (a fork and a round)")
        for rule in rules:
            for size in (int(s) for s in args.sizes.split(",")):
                if rule == "pilot_v2" and _odd(size):
                    continue
                agents, compiled = (1e3 * round_seconds(size, e, rule, args.rounds) for e in ("agents", "compiled"))
                print(f"{rule:>8} {size:>5} {agents:>10.2f} {compiled:>12.2f} {agents / compiled:>7.2f}")
        return
    print(f"{'rule':>8} {'size':>5} {'agents s':>10} {'compiled s':>11} {'ratio':>7}")
    for rule in rules:
        for size in (int(s) for s in args.sizes.split(",")):
            if rule == "pilot_v2" and _odd(size):
                print(f"{rule:>8} {size:>5} {'(an odd population: the pilot plays none)':>30}")
                continue
            agents, compiled = seconds(size, "agents", args.seeds, rule), seconds(size, "compiled", args.seeds, rule)
            print(f"{rule:>8} {size:>5} {agents:>10.4f} {compiled:>11.4f} {agents / compiled:>7.2f}")
    print(f"engine=auto plays the residents' rule up to size {AGENTS_UP_TO} (ours) and {PILOT_AGENTS_UP_TO} "
          "(pilot_v2) (0: at no size), else the compiled wave")  # fmt: skip


if __name__ == "__main__":
    main()
