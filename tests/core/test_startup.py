"""The command freezes its start-up objects once its imports are done, and leaves the collector on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import gc, json, sys
from mam_bench import cli, startup
if sys.argv[1] == "command":
    startup.as_command()
code = cli.main(sys.argv[2:])
after = [object()]  # made after the command's imports: the collector still tracks it
tracked = {id(o) for o in gc.get_objects()}  # frozen objects are not among them
print(json.dumps({
    "code": code,
    "enabled": gc.isenabled(),
    "imports_tracked": id(cli.main) in tracked,  # a function object made at start-up
    "later_tracked": id(after) in tracked,
}))
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
    assert got == {"code": 0, "enabled": True, "imports_tracked": False, "later_tracked": True}
    # called as a library (tests, notebooks), main leaves the collector alone: nothing frozen
    lib = probe(tmp_path, "library", *args, "--out", "m.csv")
    assert lib == {"code": 0, "enabled": True, "imports_tracked": True, "later_tracked": True}
    assert (tmp_path / "l.csv").read_text() == (tmp_path / "m.csv").read_text()


def test_run_command_freezes_and_keeps_collecting(tmp_path: Path) -> None:
    got = probe(tmp_path, "command", "run", "pursuit", "--policy", "stay", "--param", "rounds=3", "--out", "r")
    assert got == {"code": 0, "enabled": True, "imports_tracked": False, "later_tracked": True}


def test_landscape_exits_without_teardown_and_loses_no_output(tmp_path: Path) -> None:
    """The command skips the interpreter's teardown after landscape; its table, its last line and
    the CSV are all there (the streams are flushed and the file was closed before)."""
    done = subprocess.run(
        [sys.executable, "-m", "mam_bench", "landscape", "schelling", "--thresholds", "1/2,3/4"]
        + ["--vacancies", "1/4", "--seeds", "0-4", "--jobs", "2", "--out", "l.csv"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},  # stdout block-buffered
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("10 runs in ") and len(lines) == 4  # header, two cells, the last line
    rows = (tmp_path / "l.csv").read_text().splitlines()
    assert len(rows) == 11 and rows[-1].startswith("3/4,1/4,4,")


SKIP_PROBE = """
import threading
from mam_bench import startup
print(startup.teardown_skippable())  # a library caller: never
startup.as_command()
print(startup.teardown_skippable())  # nothing said yet
startup.nothing_left_open()
gate = threading.Event()
t = threading.Thread(target=gate.wait)
t.start()
print(startup.teardown_skippable())  # another thread runs: its atexit work must not be skipped
gate.set(); t.join()
print(startup.teardown_skippable())
"""


def test_teardown_is_skipped_only_when_nothing_runs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SKIP_PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False", "True"]
