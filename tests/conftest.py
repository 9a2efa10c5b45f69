"""Shared fixtures: a clean environment for CLI subprocesses and a place for test output."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    return env


@pytest.fixture
def mam_bench_cmd() -> list[str]:
    return [sys.executable, "-m", "mam_bench"]


#: a test key literal in the test sources ("sk-..."): none may ever reach a file a test run wrote
_KEY_LITERAL = re.compile(r"""["'](sk-[A-Za-z0-9_\-]{8,})["']""")


def _test_keys() -> set[str]:
    keys: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        keys.update(_KEY_LITERAL.findall(path.read_text(encoding="utf-8")))
    return keys


@pytest.fixture(scope="session", autouse=True)
def no_key_in_any_record(tmp_path_factory: pytest.TempPathFactory):
    """After the session, every file under the tests' temporary folders
    (run directories, experiments, caches, logs) is scanned for every test key value."""
    yield
    keys = {k.encode() for k in _test_keys()}
    base = tmp_path_factory.getbasetemp()
    found = []
    scanned = 0
    for path in base.rglob("*"):
        if not path.is_file() or path.stat().st_size > 200_000_000 or path.suffix == ".py":
            continue
        data = path.read_bytes()
        scanned += 1
        found += [f"{path}: {k.decode()[:6]}..." for k in keys if k in data]
    print(f"\nkey scan: {scanned} files under {base}, {len(keys)} test keys, {len(found)} leaks")
    assert not found, found
