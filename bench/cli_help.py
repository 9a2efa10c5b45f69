"""How long `mam-bench --help` takes, beside a bare interpreter start on the same machine.

    python bench/cli_help.py [--runs 10]

Prints the median wall time of each, the CLI's own share (the difference) and its ratio to the
bare start, beside `import mam_bench` (the package alone). The CLI imports only the chosen
subcommand, and each subcommand imports Mesa, numpy, pandas or pydantic only in its handler, so
every `--help` should stay under 0.5 s; the ratio is the figure to compare across loaded machines.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def median_seconds(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args(argv)
    bare = median_seconds([sys.executable, "-c", "pass"], args.runs)
    package = median_seconds([sys.executable, "-c", "import mam_bench"], args.runs)
    helps = {
        name: median_seconds([sys.executable, "-m", "mam_bench", *name.split()], args.runs)
        for name in ("--help", "run --help", "experiment --help", "landscape --help", "report --help")
    }
    print(f"python -c pass: {bare:.3f} s (median of {args.runs}; the baseline)")
    print(f"python -c 'import mam_bench': {package:.3f} s ({package / bare:.2f}x the baseline)")
    for name, secs in helps.items():
        mark = "under" if secs < 0.5 else "OVER"
        print(
            f"mam-bench {name}: {secs:.3f} s ({secs / bare:.2f}x the baseline, CLI's own share "
            f"{secs - bare:+.3f} s; {mark} 0.5 s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
