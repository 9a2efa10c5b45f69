"""The documentation site builds with warnings as errors, and every command block marked runnable
still prints what the page shows, so no figure can go stale unnoticed."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.markdown_blocks import ROOT, RUNNABLE, blocks, pages, runnable_blocks

BIN = Path(sys.executable).parent
RUNNABLE_BLOCKS = runnable_blocks()


def test_site_builds_strict(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    front = (tmp_path / "site" / "index.html").read_text()
    assert "Can a few coordinating AI agents" in front  # the README is the front page
    assert 'href="steer-your-own-model/"' in front  # its docs/ links point into the site


def test_readme_is_a_front_page() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    first = [b.text for b in blocks(ROOT / "README.md")[:2]]
    # the two commands a checker runs, first and exactly as given
    assert first == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/mam-bench run schelling "
        "--seed 5 --controller heuristic --out runs/s5",
        "bash scripts/test.sh",
    ]


def test_every_marker_marks_a_console_block() -> None:
    for page in pages():
        lines = page.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.strip() == RUNNABLE:
                assert lines[i + 1].strip() == "```console", f"{page}:{i + 1}: marker without a console block"
    assert len(RUNNABLE_BLOCKS) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE_BLOCKS, ids=[f"{b.page}:{b.line}" for b in RUNNABLE_BLOCKS])
def test_runnable_block_prints_what_the_page_shows(block, tmp_path: Path) -> None:
    assert block.commands, f"{block.page}:{block.line}: a runnable block without a `$ ` command"
    shutil.copytree(ROOT / "suites", tmp_path / "suites")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = ""
    for command in block.commands:
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{block.page}:{block.line}: `{command}` failed:\n{done.stderr}"
        out += done.stdout
    printed = {line.rstrip() for line in out.splitlines()}
    missing = [line for line in block.expected if line not in printed]
    assert not missing, f"{block.page}:{block.line}: these lines no longer come out:\n" + "\n".join(missing)
