"""Shared fixtures: a clean environment for CLI subprocesses and a place for test output."""

from __future__ import annotations

import os
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
