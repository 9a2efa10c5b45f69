"""The times the README, scripts/test.sh and the docs quote, measured here with the conditions they
were measured under, printed as the Markdown table of docs/results/timings.md.

    .venv/bin/python scripts/timings.py [--smoke] [--install] [--durations test-output/durations.txt]

Always: the README's first command (its `mam-bench run`, in this venv) and the test suite's counts
and wall time from the last `bash scripts/test.sh` (it keeps stage 1's output in
test-output/durations.txt). `--smoke` adds `mam-bench experiment suites/smoke.yaml` (two jobs);
`--install` adds `python bench/slim_install.py` (a fresh venv, needs PyPI). Each figure carries
the machine's core count and load average, taken before the measurement.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def conditions() -> str:
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    return f"{os.cpu_count()} cores, load average {load}"


def first_command() -> list[str]:
    """The README's first command, from `mam-bench run` on (the install before it is not timed)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(s for s in text.splitlines() if "mam-bench run " in s and "&&" in s)
    return shlex.split(line[line.index("mam-bench run ") :])


def timed(cmd: list[str], cwd: Path) -> float:
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} exited {done.returncode}: {done.stderr[-500:]}")
    return time.monotonic() - start


def suite_row(path: Path) -> tuple[str, str, str, str] | None:
    """pytest's closing line of stage 1, e.g. `1636 passed, 2 deselected in 1310.52s (0:21:50)`."""
    if not path.is_file():
        return None
    lines = [s for s in path.read_text(encoding="utf-8").splitlines() if re.search(r" in [\d.]+s", s)]
    if not lines:
        return None
    last = lines[-1].strip("= ")
    when = time.strftime("%Y-%m-%d", time.gmtime(path.stat().st_mtime))
    return (
        "test suite, stage 1 (`bash scripts/test.sh`, two workers)",
        last,
        f"the run of {when} (its load: see test.sh's closing lines)",
        "bash scripts/test.sh",
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="also time suites/smoke.yaml (two jobs)")
    ap.add_argument("--install", action="store_true", help="also run bench/slim_install.py (needs PyPI)")
    ap.add_argument("--durations", default=str(ROOT / "test-output" / "durations.txt"))
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        shown = first_command()
        cmd = [str(BIN / "mam-bench"), *shown[1:]]
        cmd[cmd.index("--out") + 1] = str(Path(tmp) / "first")
        said = conditions()
        rows.append(("the README's first command (its run)", f"{timed(cmd, ROOT):.1f} s", said, shlex.join(shown)))
        if args.smoke:
            said = conditions()
            smoke = [str(BIN / "mam-bench"), "experiment", "suites/smoke.yaml", "--jobs", "2", "--out"]
            seconds = timed([*smoke, str(Path(tmp) / "smoke")], ROOT)
            rows.append(
                ("the smoke suite", f"{seconds:.0f} s", said, "mam-bench experiment suites/smoke.yaml --jobs 2")
            )
    if args.install:
        said = conditions()
        done = subprocess.run([sys.executable, "bench/slim_install.py"], cwd=ROOT, capture_output=True, text=True)
        found = re.search(r"pip install \. \(no extras\): [^\n]*", done.stdout)
        rows.append(("core install, no extras", found.group(0) if found else "failed", said, "bench/slim_install.py"))
    suite = suite_row(Path(args.durations))
    if suite:
        rows.append(suite)
    print("| what | measured | conditions | command |\n|---|---|---|---|")
    for what, figure, cond, command in rows:
        print(f"| {what} | {figure} | {cond} | `{command}` |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
