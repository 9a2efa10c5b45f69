"""`mam-bench new-world NAME` scaffolds a package whose own check_world test passes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mam_bench", *args], cwd=cwd, capture_output=True, text=True)


def test_scaffold_passes_its_own_check_world(tmp_path: Path) -> None:
    made = _cli("new-world", "opinion_pull", "--dir", str(tmp_path), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    root = tmp_path / "opinion_pull"
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) == [
        "README.md",
        "opinion_pull/__init__.py",
        "opinion_pull/model.py",
        "opinion_pull/world.py",
        "pyproject.toml",
        "tests/test_opinion_pull.py",
    ]
    assert 'opinion_pull = "opinion_pull.world:registration"' in (root / "pyproject.toml").read_text()
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert tests.returncode == 0 and "1 passed" in tests.stdout, tests.stdout[-2000:]


def test_the_printed_hint_needs_no_pytest(tmp_path: Path) -> None:
    """The command `new-world` prints after `pip install -e` works on the core install, which has
    no pytest (here: pytest made unimportable, the package importable from the working folder as the install
    would make it)."""
    made = _cli("new-world", "opinion_pull", "--dir", str(tmp_path), cwd=tmp_path)
    hint = made.stdout.strip().split(" && ")[-1]
    script = tmp_path / "opinion_pull" / "tests" / "test_opinion_pull.py"
    assert hint == f"python {script}", made.stdout
    no_pytest = f"import runpy, sys; sys.modules['pytest'] = None; runpy.run_path({str(script)!r}, run_name='__main__')"
    root = tmp_path / "opinion_pull"  # `python -c` imports from its working folder, as the install would
    done = subprocess.run([sys.executable, "-c", no_pytest], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("check_world passed: {'seeds': 3"), done.stderr[-2000:]


def test_bad_or_taken_names_fail_before_writing(tmp_path: Path) -> None:
    for name, field in (("Bad-Name", "name"), ("class", "name"), ("voter", "name")):
        out = _cli("new-world", name, "--dir", str(tmp_path), cwd=tmp_path)
        assert out.returncode == 2 and out.stderr.startswith(f"error: {field}:"), out.stderr
    assert list(tmp_path.iterdir()) == []
