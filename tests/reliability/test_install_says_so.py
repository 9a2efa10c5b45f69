"""`bash scripts/test.sh` says it is installing before the long pip step (a first
install builds llama-cpp-python for minutes), instead of printing nothing."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess

from tests.support.cli import REPO

STUB = """#!/usr/bin/env bash
echo "STUB $(basename "$0") $*" >&2
"""


def _stub(path):
    path.write_text(STUB)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_test_sh_says_it_is_installing_before_pip_runs(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "test.sh", tmp_path / "scripts" / "test.sh")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    _stub(tmp_path / ".venv" / "bin" / "python")  # pip, ruff and pytest all go through it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("apt-get", "sudo"):  # should chromium be missing here: no real install
        _stub(bin_dir / tool)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "test.sh")], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    pip = next(i for i, line in enumerate(lines) if "-m pip install" in line)
    said = [i for i, line in enumerate(lines) if line.startswith("test.sh: installing mam-bench")]
    assert said and said[0] < pip, done.stderr
    assert "-m pytest" in lines[-1]  # and it still runs the tests at the end, as .ci/run expects
