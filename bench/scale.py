"""A steering pair at population scale: time, peak memory and record bytes per board size, the
growth exponent in agents, and the landscape kernel on the same boards in the same run.

    python bench/scale.py                          # sides 100, 200, 500, 1000
    python bench/scale.py --sizes 100 200 --rounds 5
    python bench/scale.py --plot docs/results/scale.png   # also the curve, log-log

Each size runs in a child process of its own (so its peak memory is its own): one
`mam-bench run schelling --param size=N --policy heuristic --rounds R` pair in the runner, with
both baselines (stay and mimic) against the same reference, as the CLI plays it (the reference runs
to rest or its cap of 500 rounds); the child warms the compiled code on a 20 x 20 board first, so
compiling is not timed. Beside it, the landscape kernel plays the same reference alone (seed 0, the
same cap). The exponent is the least-squares slope of log(pair seconds) over log(agents).
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
from pathlib import Path


def one(size: int, rounds: int) -> dict[str, float]:
    """One size in this process: the pair's seconds and record bytes, the kernel's seconds, peak memory."""
    from mam_bench.models.schelling.fast.runs import fast_reference_outcome
    from mam_bench.models.schelling.params import SchellingParams
    from mam_bench.runner import PairSpec, run_pair

    def pair(side: int, out: Path) -> float:
        spec = PairSpec.build(world="schelling", seed=0, controller="heuristic", rounds=rounds, params={"size": side})
        started = time.perf_counter()
        run_pair(spec, out, baselines=("stay", "mimic"))
        return time.perf_counter() - started

    with tempfile.TemporaryDirectory() as tmp:
        pair(20, Path(tmp) / "warm")
        fast_reference_outcome(SchellingParams(size=20), 0)
        seconds = pair(size, Path(tmp) / "run")
        record = sum(p.stat().st_size for p in (Path(tmp) / "run").iterdir() if p.is_file())
        reference_rounds = json.loads((Path(tmp) / "run" / "result.json").read_text())["reference"]["rounds"]
    started = time.perf_counter()
    outcome = fast_reference_outcome(SchellingParams(size=size), 0)
    kernel = time.perf_counter() - started
    return {
        "size": size,
        "agents": SchellingParams(size=size).n_agents,
        "pair_seconds": seconds,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "record_mb": record / 2**20,
        "reference_rounds": reference_rounds,
        "kernel_seconds": kernel,
        "kernel_rounds": outcome["rounds"],
    }


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(ys) over log(xs)."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500, 1000])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--plot", help="write the seconds per size, pair and kernel, to this PNG (log-log)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.rounds)))
        return
    load = os.getloadavg()[0]
    print(f"# heuristic pair + stay + mimic, {args.rounds} treatment rounds; load average {load:.2f} at start")
    print("side     agents  pair_s  peak_MB  record_MB  ref_rounds  kernel_s  pair/kernel")
    rows = []
    for size in args.sizes:
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--rounds", str(args.rounds)],
            capture_output=True,
            text=True,
            check=True,
        )
        row = json.loads(done.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(
            f"{size:>5} {row['agents']:>9} {row['pair_seconds']:>7.2f} {row['peak_mb']:>8.0f} "
            f"{row['record_mb']:>10.2f} {row['reference_rounds']:>11} {row['kernel_seconds']:>9.3f} "
            f"{row['pair_seconds'] / row['kernel_seconds']:>11.1f}",
            flush=True,
        )
    if len(rows) > 1:
        agents = [r["agents"] for r in rows]
        print(f"growth exponent in agents: pair {slope(agents, [r['pair_seconds'] for r in rows]):.2f}, "
              f"kernel {slope(agents, [r['kernel_seconds'] for r in rows]):.2f}, "
              f"record bytes {slope(agents, [r['record_mb'] for r in rows]):.2f}")  # fmt: skip
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")
    if args.plot:
        plot(rows, args.plot, load)


def plot(rows: list[dict[str, float]], path: str, load: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    agents = [r["agents"] for r in rows]
    ax.loglog(agents, [r["pair_seconds"] for r in rows], "o-", label="pair + stay + mimic (mam-bench run)")
    ax.loglog(agents, [r["kernel_seconds"] for r in rows], "s--", label="landscape kernel, reference alone")
    ax.set_xlabel("agents")
    ax.set_ylabel("seconds (wall)")
    ax.set_title(f"Schelling, 20 treatment rounds; load average {load:.1f} on 2 cores", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
