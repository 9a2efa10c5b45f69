"""The command freezes its start-up objects once its imports are done, and leaves the collector on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = """
import gc, json, sys
from mam_bench import cli, startup
if sys.argv[1] == "command":
    startup.as_command()
code = cli.main(sys.argv[2:])
print(json.dumps({"code": code, "frozen": gc.get_freeze_count(), "enabled": gc.isenabled()}))
"""


def probe(tmp_path: Path, mode: str, *argv: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_landscape_command_freezes_its_imports(tmp_path: Path) -> None:
    args = ["landscape", "schelling", "--thresholds", "1/2", "--vacancies", "1/4", "--seeds", "0-1"]
    got = probe(tmp_path, "command", *args, "--out", "l.csv")
    assert got["code"] == 0 and got["enabled"]
    assert got["frozen"] > 50_000  # numpy, pydantic and numba's objects, not scanned again
    # called as a library (tests, notebooks), main leaves the collector alone
    lib = probe(tmp_path, "library", *args, "--out", "m.csv")
    assert lib["code"] == 0 and lib["enabled"] and lib["frozen"] == 0
    assert (tmp_path / "l.csv").read_text() == (tmp_path / "m.csv").read_text()


def test_run_command_freezes_and_keeps_collecting(tmp_path: Path) -> None:
    got = probe(tmp_path, "command", "run", "pursuit", "--policy", "stay", "--param", "rounds=3", "--out", "r")
    assert got["code"] == 0 and got["enabled"] and got["frozen"] > 50_000
