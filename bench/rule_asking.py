"""What a planner saves by not asking the rule in its rollouts where no agent keeps the answer
(`rule_answer_kept = False`), against the same rollouts asking it as the live run does (the world
class with the flag set back to True), in the same run, alternated rep by rep.

Per v3 scenario at its benchmark dose (suites/benchmark-v3.yaml), from the treatment world of seed
1000 after 3 rounds on the rule, by influence count (up to the scenario's): ms per greedy joint
action (a one-round rollout of every candidate) and per oracle rollout of 5 rounds (greedy's joint
action, then the rule), asked and not, their ratio, and whether both found the same joint action
and value (they must: nothing of the world is kept from asking). Crafting keeps the answer: it is
the control, asked either way, and its ratio stays near 1.

Measured 2026-12-07 (load 3.6: a ceiling run beside it), --reps 3 --influence 2,16, greedy ms
asked / not / ratio, rollout ms asked / not / ratio:
schelling-segregate 16 agents 2220.1 / 1300.9 / 0.59, 4.4 / 2.2 / 0.50 (2 agents: 0.76, 0.67);
schelling_pilot-integrate 16: 0.94, 0.90 (its rule's answer is cheap); pursuit-hinder 2: 0.92,
0.95; cascade-citizen-increase 16: 0.96, 0.83; crafting-forge-accelerate 2: 1.04, 0.99; the same
joint action and value in every row.

Run: `python -m bench.rule_asking [--scenarios a,b] [--influence 2,8,16] [--reps 3]`
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from mam_bench.benchmark.definition import load_benchmark, scenario_case
from mam_bench.registry import get_world
from mam_bench.runner import prepare
from mam_bench.steering.greedy import GreedyOptions, greedy_joint
from mam_bench.steering.oracle import OracleController
from mam_bench.world import SteerableWorld, play_round

SCENARIOS = (
    "schelling-segregate",
    "schelling_pilot-integrate",
    "pursuit-hinder",
    "cascade-citizen-increase",
    "crafting-forge-accelerate",
)


def live_world(bench: Any, name: str, influence: int, asked: bool) -> SteerableWorld:
    """The scenario's treatment world after 3 rounds on the rule; `asked`: its class with the flag
    set to True (rollouts ask the rule as the live run does)."""
    s = next(s for s in bench.scenarios if s.name == name)
    spec = scenario_case(bench, s, bench.tier_for("standard", s), "rule", {}).pair_spec(1000)
    spec = spec.model_copy(update={"influence": influence})
    world_cls = get_world(spec.world)
    if asked:
        world_cls = type(world_cls.__name__, (world_cls,), {"rule_answer_kept": True})
    world = prepare(spec, world_cls=world_cls).new_world(treatment=True)
    for _ in range(3):
        play_round(world)
    return world


def measure(bench: Any, name: str, influence: int, asked: bool) -> tuple[float, float, tuple]:
    """(ms per greedy joint action, ms per 5-round rule rollout, what they found)."""
    world = live_world(bench, name, influence, asked)
    oracle = OracleController(type(world), world.run.objective)
    oracle.bind(world.name, world.run.objective, 1000)
    start = time.perf_counter()
    joint = asyncio.run(greedy_joint(oracle, world, GreedyOptions()))
    greedy = time.perf_counter() - start
    start = time.perf_counter()
    value = asyncio.run(oracle.rollout(world, world.round + 5, joint, "rule"))
    rollout = time.perf_counter() - start
    found = (sorted((aid, d.defer, str(d.action)) for aid, d in joint.items()), value)
    return 1000 * greedy, 1000 * rollout, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--influence", default="2,8,16")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    print("ms per greedy joint action and per 5-round rule rollout; asked (as the live run) / not asked")
    head = f"{'greedy asked':>12} {'not':>8} {'ratio':>6} {'rollout asked':>13} {'not':>7} {'ratio':>6}"
    print(f"{'scenario':28} {'infl':>4} {head}  same")
    bench = load_benchmark("suites/benchmark-v3.yaml")
    for name in args.scenarios.split(","):
        dose = next(s.influence for s in bench.scenarios if s.name == name)
        for influence in sorted({min(int(x), dose) for x in args.influence.split(",")}):
            times: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
            found: dict[bool, tuple] = {}
            for _ in range(args.reps):
                for asked in (True, False):
                    g, r, found[asked] = measure(bench, name, influence, asked)
                    times[asked].append((g, r))
            ga, gn = min(t[0] for t in times[True]), min(t[0] for t in times[False])
            ra, rn = min(t[1] for t in times[True]), min(t[1] for t in times[False])
            same = "yes" if found[True] == found[False] else "NO"
            cells = f"{ga:>12.1f} {gn:>8.1f} {gn / ga:>6.2f} {ra:>13.1f} {rn:>7.1f} {rn / ra:>6.2f}"
            print(f"{name:28} {influence:>4} {cells}  {same}")


if __name__ == "__main__":
    main()
