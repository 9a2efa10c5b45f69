"""The slim core in a fresh venv: `pip install .` with no extras, then the README's first command,
then `mam-bench dashboard`, which must name the missing extra in one line.

    python bench/slim_install.py [--keep DIR]

Needs PyPI (pip downloads the core's dependencies), so it is a bench script, not a test.
Prints the install time, the number of installed distributions and the venv's size.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST = ["run", "schelling", "--seed", "5", "--policy", "heuristic", "--out"]


def sh(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, help="build the venv here and keep it")
    args = ap.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="mam-slim-"))
    venv = work / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    try:
        sh([base, "-m", "venv", str(venv)], check=True)  # no --system-site-packages: nothing borrowed
        py, cli = venv / "bin" / "python", venv / "bin" / "mam-bench"
        started = time.perf_counter()
        done = sh([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)])
        secs = time.perf_counter() - started
        if done.returncode != 0:
            print(done.stderr[-3000:])
            return 1
        dists = sh([str(py), "-m", "pip", "list", "--format=freeze"]).stdout.split()
        heavy = sorted(
            d.split("==")[0]
            for d in dists
            if d.split("==")[0].lower()
            in {"solara", "langchain", "langchain-core", "ray", "jupyter-core", "ipywidgets", "llama-cpp-python"}
        )
        print(
            f"pip install . (no extras): {secs:.0f} s, {len(dists)} distributions, venv {size_mb(venv):.0f} MB; "
            f"solara/langchain/ray/jupyter/llama present: {heavy or 'none'}"
        )
        run = sh([str(cli), *FIRST, str(work / "runs" / "s5")], cwd=work)
        print(f"README first command: exit {run.returncode}")
        print("  " + "\n  ".join(run.stdout.strip().splitlines()[:6]) if run.returncode == 0 else run.stderr[-2000:])
        dash = sh([str(cli), "dashboard"], cwd=work, timeout=60)
        lines = dash.stderr.strip().splitlines()
        print(f"mam-bench dashboard: exit {dash.returncode}, {len(lines)} line(s) on stderr: {dash.stderr.strip()}")
        ok = (
            run.returncode == 0
            and dash.returncode == 2
            and len(lines) == 1
            and "[dashboards]" in lines[0]
            and not heavy
        )
        print("slim install: OK" if ok else "slim install: FAILED")
        return 0 if ok else 1
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
