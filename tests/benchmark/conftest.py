"""A reduced benchmark (three fast scenarios in three worlds, a tier of 2 seeds x 3 rounds) that
exercises the machinery the shipped one uses, in seconds instead of minutes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

TINY = {
    "name": "mam-bench-tiny",
    "tiers": {
        "quick": {"seeds": "0-1", "rounds": 3, "influence": 2, "llm_options": {"one_call": True}},
        "full": {"seeds": "0-2"},
    },
    "scenarios": [
        {
            "name": "schelling-integrate",
            "world": "schelling",
            "objective": "integrate",
            "params": {"size": 10},
            "rounds": 4,
            "influence": 4,
        },
        {"name": "synchronization-help", "world": "synchronization", "objective": "help", "rounds": 4, "influence": 2},
        {"name": "voter-spread", "world": "voter", "objective": "spread", "rounds": 4, "influence": 2},
    ],
}


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(TINY), encoding="utf-8")
    return path


@pytest.fixture
def tiny_v2(tmp_path: Path) -> Path:
    """The reduced benchmark scored by v2 on 3 seeds, the oracle (a small search) its reference."""
    oracle = {"reference": "oracle", "reference_options": {"candidates": 1, "sweeps": 1}}
    data = {
        **TINY,
        "name": "mam-bench-tiny-v2",
        "score": "v2",
        "scenarios": [{**s, **oracle} for s in TINY["scenarios"]],
    }
    data["tiers"] = {**TINY["tiers"], "quick": {**TINY["tiers"]["quick"], "seeds": "0-2"}}
    path = tmp_path / "tiny-v2.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path
