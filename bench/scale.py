"""A steering pair at population scale: time, peak memory and record bytes per size, the growth
exponent in agents, and a baseline of the same world measured in the same run.

    python bench/scale.py                          # every world at its 4 default sizes
    python bench/scale.py --world voter --sizes 2500 5000 --rounds 5
    python bench/scale.py --plot docs/results/scale.png   # also the curves, log-log

Each size runs in a child process of its own (so its peak memory is its own): one
`mam-bench run WORLD --param FIELD=N --controller heuristic --rounds R` pair in the runner, with both
baselines (stay and mimic) against the same reference, as the CLI plays it (the reference runs to
rest or its cap); the child warms the code on a small world first, so compiling is not timed.
Beside it, in the same child, a baseline plays the same reference rounds without the pair:
- schelling (board side N, N x N cells): the landscape kernel, seed 0, the same cap;
- voter (N nodes): the bare Mesa `VoterModel`, stepped as many rounds as the pair's reference;
- foraging (N agents on a grid of side ceil(sqrt(6 N)) + 2, one agent per six cells): the world
  alone, all-rule, no records, as many rounds as the pair's reference.
The exponent is the least-squares slope of log(pair seconds) over log(agents).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mam_bench.world import play_round

SIZES = {"schelling": [100, 200, 500, 1000], "voter": [2500, 5000, 10000, 20000], "foraging": [500, 1000, 2000, 4000]}
BASELINES = {
    "schelling": "landscape kernel, reference alone",
    "voter": "bare Mesa model, reference rounds",
    "foraging": "world alone, reference rounds",
}


def foraging_side(agents: int) -> int:
    """A grid side with about six cells per agent inside its wall ring."""
    return math.ceil(math.sqrt(6 * agents)) + 2


def params_of(world: str, size: int) -> dict[str, int]:
    if world == "schelling":
        return {"size": size}
    if world == "voter":
        return {"n": size}
    return {"agents": size, "size": foraging_side(size)}


def agents_of(world: str, size: int) -> int:
    if world == "schelling":
        from mam_bench.models.schelling.params import SchellingParams

        return SchellingParams(size=size).n_agents
    return size


def baseline(world: str, size: int, rounds: int) -> Callable[[], int]:
    """The baseline's work as a function of no arguments (returns the rounds it played)."""
    if world == "schelling":
        from mam_bench.models.schelling.fast.runs import fast_reference_outcome
        from mam_bench.models.schelling.params import SchellingParams

        return lambda: fast_reference_outcome(SchellingParams(size=size), 0)["rounds"]
    if world == "voter":
        from mam_bench.models.voter.model import VoterModel

        def bare() -> int:
            model = VoterModel(n=size, seed=0)
            for _ in range(rounds):
                model.step()
            return rounds

        return bare
    from mam_bench.registry import get_world

    cls = get_world(world)

    def alone() -> int:
        w = cls(cls.Params(**params_of(world, size)), seed=0, influence_ids=[], role="reference")
        for _ in range(rounds):
            play_round(w)
        return rounds

    return alone


def one(world: str, size: int, rounds: int) -> dict[str, float]:
    """One size in this process: the pair's seconds and record bytes, the baseline's seconds, peak memory."""
    from mam_bench.runner import PairSpec, run_pair

    def pair(params: dict[str, int], out: Path) -> float:
        spec = PairSpec.build(world=world, seed=0, controller="heuristic", rounds=rounds, params=params)
        started = time.perf_counter()
        run_pair(spec, out, baselines=("stay", "mimic"))
        return time.perf_counter() - started

    with tempfile.TemporaryDirectory() as tmp:
        pair(params_of(world, 20) if world == "schelling" else {}, Path(tmp) / "warm")
        if world == "schelling":
            baseline(world, 20, rounds)()
        seconds = pair(params_of(world, size), Path(tmp) / "run")
        record = sum(p.stat().st_size for p in (Path(tmp) / "run").iterdir() if p.is_file())
        reference_rounds = json.loads((Path(tmp) / "run" / "result.json").read_text())["reference"]["rounds"]
    work = baseline(world, size, reference_rounds)
    started = time.perf_counter()
    baseline_rounds = work()
    base = time.perf_counter() - started
    return {
        "world": world,
        "size": size,
        "agents": agents_of(world, size),
        "pair_seconds": seconds,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "record_mb": record / 2**20,
        "reference_rounds": reference_rounds,
        "baseline_seconds": base,
        "baseline_rounds": baseline_rounds,
    }


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(ys) over log(xs)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--world", nargs="+", choices=sorted(SIZES), default=list(SIZES))
    ap.add_argument("--sizes", type=int, nargs="+", help="with one --world: its sizes (default: its 4)")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--plot", help="write the seconds per size, pair and baseline, to this PNG (log-log)")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.rounds)))
        return
    if args.sizes and len(args.world) != 1:
        ap.error("--sizes goes with one --world")
    load = os.getloadavg()[0]
    print(f"# heuristic pair + stay + mimic, {args.rounds} treatment rounds; load average {load:.2f} at start")
    rows: dict[str, list[dict[str, float]]] = {}
    for world in args.world:
        print(f"\n## {world} (baseline: {BASELINES[world]})")
        print(" size     agents  pair_s  peak_MB  record_MB  ref_rounds  baseline_s  pair/baseline")
        rows[world] = []
        for size in args.sizes or SIZES[world]:
            done = subprocess.run(
                [sys.executable, __file__, "--one", world, str(size), "--rounds", str(args.rounds)],
                capture_output=True,
                text=True,
                check=True,
            )
            row = json.loads(done.stdout.strip().splitlines()[-1])
            rows[world].append(row)
            print(
                f"{size:>5} {row['agents']:>10} {row['pair_seconds']:>7.2f} {row['peak_mb']:>8.0f} "
                f"{row['record_mb']:>10.2f} {row['reference_rounds']:>11} {row['baseline_seconds']:>11.3f} "
                f"{row['pair_seconds'] / row['baseline_seconds']:>14.1f}",
                flush=True,
            )
        got = rows[world]
        if len(got) > 1:
            agents = [r["agents"] for r in got]
            print(f"growth exponent in agents: pair {slope(agents, [r['pair_seconds'] for r in got]):.2f}, "
                  f"baseline {slope(agents, [r['baseline_seconds'] for r in got]):.2f}, "
                  f"record bytes {slope(agents, [r['record_mb'] for r in got]):.2f}")  # fmt: skip
    print(f"\n# load average {os.getloadavg()[0]:.2f} at the end")
    if args.plot:
        plot(rows, args.plot, load, args.rounds)


def plot(rows: dict[str, list[dict[str, float]]], path: str, load: float, rounds: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.6, 4.0))
    colours = {"schelling": "#0072B2", "voter": "#E69F00", "foraging": "#009E73"}
    for world, got in rows.items():
        agents = [r["agents"] for r in got]
        colour = colours.get(world)
        pair, base = [r["pair_seconds"] for r in got], [r["baseline_seconds"] for r in got]
        ax.loglog(agents, pair, "o-", color=colour, label=f"{world}: pair + stay + mimic")
        ax.loglog(agents, base, "s--", color=colour, label=f"{world}: {BASELINES[world]}")
    ax.set_xlabel("agents")
    ax.set_ylabel("seconds (wall)")
    ax.set_title(f"{rounds} treatment rounds; load average {load:.1f} on 2 cores", fontsize=9)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.02, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
