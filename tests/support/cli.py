"""Running `mam-bench` in tests, one way each: in this process (fast; argparse's usage exit is caught
and returned as the exit code) or as a real process (`python -m mam_bench`, the installed program)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from mam_bench.cli import main

REPO = Path(__file__).resolve().parents[2]


def cli_in_process(capsys: Any, *argv: str) -> tuple[int, str]:
    """(exit code, stderr) of `main(argv)` in this process."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse: a usage error
        code = exc.code
    return code, capsys.readouterr().err.strip()


def cli_process(
    *args: str | Path, cwd: Path | str = REPO, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """`python -m mam_bench ARGS` in a real process; `env` adds to (never replaces) the environment."""
    return subprocess.run(
        [sys.executable, "-m", "mam_bench", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def cli_pipeline(*args: str, into: str, cwd: Path | str = REPO, timeout: float = 300) -> subprocess.CompletedProcess:
    """`python -m mam_bench ARGS | INTO` through the shell (e.g. a reader that leaves early)."""
    command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "mam_bench", *args))
    return subprocess.run(f"{command} | {into}", shell=True, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def llm_pair_args(base_url: str, out: Path | str, *extra: str, model: str = "openai:m", rounds: int = 2) -> list[str]:
    """`run` arguments for the tests' standard LLM pair: Schelling seed 22 through an
    OpenAI-compatible server at `base_url`; `extra` adds flags (key variable, limits, ...)."""
    head = ["run", "schelling", "--seed", "22", "--policy", "llm", "--model", model, "--base-url", base_url]
    return [*head, "--rounds", str(rounds), "--out", str(out), *extra]
