"""What a v3 ceiling costs: per scenario, the wall seconds of one seed's ceiling plays (the oracle
with the definition's planner, then every `ceiling_from` source and placebo), and what the tier's
seeds would take on this machine at `--jobs` pairs at a time.

Usage: python -m bench.ceiling_cost [--definition suites/benchmark-v3.yaml] [--tier standard]
       [--seed 1000] [--scenarios a,b] [--jobs 2] [--max-seconds 600]

A scenario whose oracle pair runs past --max-seconds is stopped there and printed as a lower bound
(`>`), so the whole table stays affordable on a busy machine.

With `--from DIR` (a finished `mam-bench ceiling` folder of a smaller tier) nothing is played: each
scenario's mean seconds per pair there (oracle, and all others) are scaled to `--tier` by the
planner's work, which grows with the rounds each rollout plays summed over the rounds (H(H+1)/2) times
the influence agents (the other pairs: by H times agents). An extrapolation, printed as one
(from a folder of the same tier, such as a calibration being played, the seconds are its own):

    python -m bench.ceiling_cost --from runs/v3-ceiling-smoke --from-tier smoke --tier standard
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

from mam_bench.benchmark.definition import load_benchmark, parse_seeds, reference_case, scenario_case


def _play(spec_json: str, queue: mp.Queue) -> None:
    from mam_bench.runner import PairSpec, run_pair

    started = time.perf_counter()
    run_pair(PairSpec.model_validate_json(spec_json))
    queue.put(time.perf_counter() - started)


def timed(spec_json: str, limit: float) -> tuple[float, bool]:
    """(seconds, finished) of one pair in a child process, stopped at `limit`."""
    queue: mp.Queue = mp.Queue()
    proc = mp.Process(target=_play, args=(spec_json, queue))
    started = time.perf_counter()
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return time.perf_counter() - started, False
    return queue.get() if not queue.empty() else time.perf_counter() - started, True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--definition", default="suites/benchmark-v3.yaml")
    ap.add_argument("--tier", default="standard")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--scenarios", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-seconds", type=float, default=600.0)
    ap.add_argument("--from", dest="source", default=None, help="a finished ceiling folder to extrapolate from")
    ap.add_argument("--from-tier", default="smoke", help="the tier that folder played")
    args = ap.parse_args()
    bench = load_benchmark(args.definition)
    if args.source:
        if not (Path(args.source) / "table.csv").is_file():
            print(
                f"error: --from: no table.csv in {args.source} (a `mam-bench ceiling` run folder has one; "
                "a shipped ceiling.json holds no seconds)",
                file=sys.stderr,
            )
            sys.exit(2)
        extrapolate(bench, args)
        return
    n_seeds = len(parse_seeds(bench.tier(args.tier).seeds))
    names = set(args.scenarios.split(",")) if args.scenarios else None
    print(f"{bench.name} tier {args.tier}: one seed ({args.seed}) per scenario; {n_seeds} seeds, {args.jobs} jobs")
    print(f"{'scenario':30} {'oracle s':>10} {'others s':>9} {'per seed s':>11} {'tier h':>8}")
    total, bounded = 0.0, False
    for s in bench.scenarios:
        if names is not None and s.name not in names:
            continue
        tier = bench.tier_for(args.tier, s)
        oracle = reference_case(bench, s, tier).pair_spec(args.seed)
        seconds, done = timed(oracle.model_dump_json(), args.max_seconds)
        others = 0.0
        for name in (*bench.ceiling_sources(), *bench.placebos()):
            spec = scenario_case(bench, s, tier, name, {}).pair_spec(args.seed)
            others += timed(spec.model_dump_json(), args.max_seconds)[0]
        per_seed = seconds + others
        hours = per_seed * n_seeds / args.jobs / 3600
        total += hours
        bounded |= not done
        mark = "" if done else ">"
        cells = (mark + f"{seconds:.1f}", f"{others:.1f}", mark + f"{per_seed:.1f}", mark + f"{hours:.2f}")
        print(f"{s.name:30} {cells[0]:>10} {cells[1]:>9} {cells[2]:>11} {cells[3]:>8}")
    print(f"tier total: {'>' if bounded else ''}{total:.1f} h on {args.jobs} jobs")


def _dose(bench, tier: str, s) -> tuple[int, int]:
    t = bench.tier_for(tier, s)
    return t.rounds or s.rounds, t.influence or s.influence or 1


def extrapolate(bench, args) -> None:
    import pandas as pd

    table = pd.read_csv(f"{args.source}/table.csv")
    table["scenario"] = table.case.str.partition("/")[0]
    n_seeds = len(parse_seeds(bench.tier(args.tier).seeds))
    same = args.from_tier == args.tier
    head = (
        f"measured in {args.source} (tier {args.tier}; mean seconds per pair, scenarios played so far)"
        if same
        else f"extrapolated from {args.source} (tier {args.from_tier}) to tier {args.tier}"
    )
    print(f"{head}: {n_seeds} seeds, {args.jobs} jobs")
    print(f"{'scenario':30} {'oracle s':>9} {'x work':>7} {'oracle s':>10} {'others s':>9} {'tier h':>8}")
    total = 0.0
    for s in bench.scenarios:
        rows = table[table.scenario == s.name]
        if rows.empty:
            continue
        (h0, a0), (h1, a1) = _dose(bench, args.from_tier, s), _dose(bench, args.tier, s)
        scale = (h1 * (h1 + 1) * a1) / (h0 * (h0 + 1) * a0)
        oracle = float(rows[rows.controller == "oracle"].wall_seconds.mean())
        others = float(rows[rows.controller != "oracle"].groupby("controller").wall_seconds.mean().sum())
        big = oracle * scale
        rest = others * (h1 * a1) / (h0 * a0)
        hours = (big + rest) * n_seeds / args.jobs / 3600
        total += hours
        print(f"{s.name:30} {oracle:>9.1f} {scale:>7.0f} {big:>10.0f} {rest:>9.0f} {hours:>8.1f}")
    what = "the scenarios played so far" if same else "an extrapolation, not a measurement"
    print(f"tier total: about {total:.1f} h on {args.jobs} jobs ({what})")


if __name__ == "__main__":
    main()
