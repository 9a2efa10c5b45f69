"""`bash scripts/test.sh` says it is installing before the long pip step (a first
install builds llama-cpp-python for minutes), instead of printing nothing, runs the local-model
tests in a stage of their own and ends with where the time went."""

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
    # and it still runs the tests at the end, as .ci/run expects: the local model's alone, after the rest
    stages = [line for line in lines if "-m pytest" in line]
    assert len(stages) == 2 and "-m not local_model" in stages[0] and "-m local_model" in stages[1], stages
    # then says where the time went
    assert lines[-2].startswith("test.sh: time: install ") and ", stage 2 " in lines[-2], lines[-2]
    assert lines[-1] == "test.sh: exit: stage 1 0, stage 2 0"


#: a python whose venv has no llama_cpp yet (the find_spec check fails), logging the build settings pip gets
FIRST_INSTALL_STUB = """#!/usr/bin/env bash
case "$*" in *find_spec*) exit 1;; esac
echo "STUB $(basename "$0") $* CMAKE_ARGS=[${CMAKE_ARGS:-}] PARALLEL=[${CMAKE_BUILD_PARALLEL_LEVEL:-}]" >&2
"""


def test_a_first_install_says_how_long_and_builds_only_what_the_bindings_load(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "test.sh", tmp_path / "scripts" / "test.sh")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    python = tmp_path / ".venv" / "bin" / "python"
    python.write_text(FIRST_INSTALL_STUB)
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("apt-get", "sudo"):
        _stub(bin_dir / tool)
    env = {k: v for k, v in os.environ.items() if k not in ("CMAKE_ARGS", "CMAKE_BUILD_PARALLEL_LEVEL")}
    env["PATH"] = f"{bin_dir}:{os.environ['PATH']}"
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "test.sh")], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    pip = next(i for i, line in enumerate(lines) if "-m pip install" in line)
    warned = next(i for i, line in enumerate(lines) if line.startswith("test.sh: first install:"))
    assert warned < pip and " min " in lines[warned]  # the time, said before the build starts
    for flag in ("-DLLAVA_BUILD=OFF", "-DLLAMA_BUILD_SERVER=OFF", "-DLLAMA_BUILD_TOOLS=OFF"):
        assert flag in lines[pip]
    assert "PARALLEL=[2]" in lines[pip]


def test_a_later_install_builds_nothing_special(tmp_path):
    """With llama_cpp installed (the stub's find_spec check passes) no build settings are exported."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "test.sh", tmp_path / "scripts" / "test.sh")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    python = tmp_path / ".venv" / "bin" / "python"
    python.write_text(FIRST_INSTALL_STUB.replace("exit 1", "exit 0"))
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    env = {k: v for k, v in os.environ.items() if k not in ("CMAKE_ARGS", "CMAKE_BUILD_PARALLEL_LEVEL")}
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "test.sh")], capture_output=True, text=True, env=env, timeout=60
    )
    pip = next(line for line in done.stderr.splitlines() if "-m pip install" in line)
    assert "CMAKE_ARGS=[]" in pip and "first install" not in done.stderr
