"""Shared bits for the experiment tests: a small two-world suite and a CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.support import cli as support

REPO = support.REPO
#: the experiment tests' CLI runner: the suite's one real-process helper (tests/support/cli.py)
cli = support.cli_process


def second_world() -> dict:
    """The suite's second world: crafting. A crafting import error fails these tests loudly instead
    of silently swapping in Schelling."""
    return {"world": "crafting"}


def two_by_two(seeds: int = 10) -> dict:
    second = second_world()
    cases = []
    for policy in ("rule", "random"):
        cases.append(
            {
                "name": f"schelling-{policy}",
                "world": "schelling",
                "params": {"size": 10, "max_rounds": 60},
                "controller": policy,
                "influence": 4,
            }
        )
        cases.append({"name": f"{second['world']}-2-{policy}", **second, "controller": policy})
    return {"name": "two-by-two", "seeds": seeds, "cases": cases}


@pytest.fixture
def write_suite(tmp_path: Path):
    def write(data: dict, name: str = "suite.yaml") -> Path:
        p = tmp_path / name
        p.write_text(yaml.safe_dump(data), encoding="utf-8")
        return p

    return write
