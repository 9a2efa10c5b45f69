"""A regular (non-editable) install of this checkout in a fresh venv, offline: the wheel is built
from a copy of the tree (so two builds running at once never share setuptools' build folder), the
dependencies come from the test interpreter's own site directories through a .pth file (their .pth
hooks are not run, so the checkout's editable mam_bench stays invisible), and nothing is fetched."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: what a copy of the checkout leaves behind: environments, records, build products
NOT_SOURCE = (".venv", ".git", "build", "dist", "runs", "test-output", "site", "*.egg-info", "__pycache__")


def run(*cmd: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise AssertionError(f"{cmd} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def wheel(source: Path, out: Path, env: dict[str, str] | None = None) -> Path:
    """The wheel of `source`, built from a private copy of it."""
    copy = out / "src"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        out,
        copy,
        env=env,
    )
    return next(out.glob("*.whl"))


def fresh_venv(where: Path, data: tuple[str, ...] = (), env: dict[str, str] | None = None) -> Path:
    """A new venv seeing the test interpreter's packages (not its editable mam_bench); `data`:
    prefix folders to copy in, as an ordinary install of the dependencies would have them."""
    base = Path(getattr(sys, "_base_executable", sys.executable))
    run(base, "-m", "venv", where, env=env)
    site_dir = next((where / "lib").glob("python3*/site-packages"))
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (site_dir / "zz_test_dependencies.pth").write_text("\n".join(deps) + "\n")
    for folder in data:
        for prefix in (Path(sys.prefix), Path(sys.base_prefix)):
            if (prefix / folder).is_dir():
                shutil.copytree(prefix / folder, where / folder, dirs_exist_ok=True)
                break
    return where / "bin" / "python"
