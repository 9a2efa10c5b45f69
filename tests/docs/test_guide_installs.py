"""The guide's files, copied into a fresh folder with the guide's own pyproject.toml, install with
`pip install -e .` into a fresh venv; `mam-bench worlds` then lists the world with its summary and
check_world passes on the installed world, from another folder. Offline: the venv sees the test
interpreter's packages (mam-bench and its dependencies), and the build uses them
(`--no-deps --no-build-isolation`)."""

from __future__ import annotations

import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.markdown_blocks import ROOT, blocks

GUIDE = ROOT / "docs" / "steer-your-own-model.md"


def _run(*cmd: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{cmd}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def guide_folder(where: Path) -> Path:
    """The guide's Python files under their names, and its pyproject.toml, as a reader saves them."""
    where.mkdir()
    tomls = [b for b in blocks(GUIDE) if b.lang == "toml"]
    assert len(tomls) == 1, "the guide shows one whole pyproject.toml"
    (where / "pyproject.toml").write_text(tomls[0].text + "\n")
    for block in blocks(GUIDE):
        if block.lang == "python":
            (where / block.text.splitlines()[0][2:]).write_text(block.text + "\n")
    return where


@pytest.mark.slow
def test_the_guide_installs_and_lists_its_world(tmp_path: Path) -> None:
    project = guide_folder(tmp_path / "my-voter")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    py = venv / "bin" / "python"
    site_dir = next((venv / "lib").glob("python3*/site-packages"))
    # the test interpreter's packages, editable mam-bench included (its .pth hooks run)
    (site_dir / "zz_test_packages.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in site.getsitepackages())
    )
    pip = [sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-build-isolation"]
    _run(*pip, "--no-index", "-e", ".", cwd=project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = _run(py, "-m", "mam_bench", "worlds", cwd=elsewhere).stdout
    line = next((row for row in listed.splitlines() if row.split()[:1] == ["my_voter"]), None)
    assert line is not None, listed
    assert line.endswith("voter model; influence agents hold an opinion (share of 1)"), line
    check = "from mam_bench.registry import get_world\nfrom mam_bench.testing import check_world\n"
    check += "print(check_world(get_world('my_voter')))\n"
    assert "'checks'" in _run(py, "-c", check, cwd=elsewhere).stdout
    assert _run(py, "check.py", cwd=project).returncode == 0  # the guide's own check, as it says
