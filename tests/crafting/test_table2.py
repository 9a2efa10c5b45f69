"""AgentWorld's Table 2 in our form, from constructed pair records whose means are known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mam_bench.errors import ConfigError
from mam_bench.models.crafting.table2 import agentworld_table


def pair(folder: Path, name: str, seed: int, condition: str, who: dict, ref: dict, tre: dict) -> None:
    (folder / "pairs" / name).mkdir(parents=True)
    result = {
        "world": "crafting",
        "seed": seed,
        "params": {"task": "forge_vanguard", "condition": condition},
        "controller": who,
        "validity": {"status": "valid"},
        "reference": {"final": ref, "rounds": 40},
        "treatment": {"final": tre, "rounds": 30},
    }
    (folder / "pairs" / name / "result.json").write_text(json.dumps(result))


def final(sr: float, psr: float, cce: float = 0.0, chats: float = 0.0) -> dict:
    return {"sr": sr, "psr": psr, "cce": cce, "chats": chats}


def test_rows_per_model_and_condition_with_the_reference_counted_once_per_seed(tmp_path: Path) -> None:
    llm = {"name": "llm", "model": "openai:gpt-x"}
    for seed, sr in ((0, 1.0), (1, 0.0)):
        pair(tmp_path, f"l{seed}", seed, "standard", llm, final(0, 0.5), final(sr, 1.0, 0.4, 3))
        pair(tmp_path, f"s{seed}", seed, "standard", {"name": "stay"}, final(0, 0.5), final(0, 0.25))
    pair(tmp_path, "n0", 0, "no_communication", llm, final(0, 0.0), final(0, 0.5))
    text = agentworld_table(tmp_path)
    rows = {tuple(c.strip() for c in line.split("|")[1:4]): line for line in text.splitlines() if line.startswith("| ")}
    assert rows[("all-rule (reference)", "standard", "2")]  # two seeds, not four pairs
    assert "| 50.0 [0.0, 100.0] | 100.0 | 0.400 | 30.0 | 3.0 |" in rows[("openai:gpt-x", "standard", "2")]
    assert "| 0.0 | 25.0 |" in rows[("stay", "standard", "2")]
    assert ("openai:gpt-x", "no_communication", "1") in rows
    assert list(rows)[1][0] == "all-rule (reference)"  # the reference rows lead (after the header)


def test_an_invalid_pair_is_left_out_and_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no finished crafting pairs"):
        agentworld_table(tmp_path)
    pair(tmp_path, "a", 0, "standard", {"name": "random"}, final(1, 1), final(0, 0))
    bad = tmp_path / "pairs" / "a" / "result.json"
    bad.write_text(json.dumps({**json.loads(bad.read_text()), "validity": {"status": "invalid"}}))
    with pytest.raises(ConfigError):
        agentworld_table(tmp_path)


def test_report_agentworld_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from mam_bench.cli import main

    pair(tmp_path, "a", 0, "no_roles", {"name": "random"}, final(1, 1), final(0, 0.5))
    assert main(["report", str(tmp_path), "--agentworld"]) == 0
    out = capsys.readouterr().out
    assert "| random | no_roles | 1 | 0.0 | 50.0 |" in out and "all-rule (reference)" in out
