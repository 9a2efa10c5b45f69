"""The gemma row of the v2 leaderboard comes from the records shipped in data/benchmark/: the
published row is the record's own, its legal-decision count is the decisions', and a replay with
llama.cpp and LangChain unimportable plays the recorded decisions to the same outcomes (one of the
ten seeds, to keep the suite short: a seed replays 50 pairs, the oracle's among them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

from mam_bench.benchmark.decisions import legal_line
from mam_bench.benchmark.leaderboard import build_board
from mam_bench.benchmark.leaderboard_v2 import tables_v2
from tests.benchmark.test_replay import COMPARED, entry_rows
from tests.benchmark.test_shipped_gemma import KEPT, MAX_BYTES, MODEL, REPO, WITHOUT_MODEL, published_row

RECORD = REPO / "data" / "benchmark" / "mam-bench-v2-quick-gemma3-270m"
SECTION = "### v2, quick tier, held-out seeds 1000-1009"


def board_row(folder: Path) -> list[str]:
    (row,) = tables_v2(build_board([folder]))["ranked"][1]
    return row


def decisions() -> list[dict]:
    return [
        json.loads(line)
        for pid in entry_rows(RECORD)["pair_id"]
        for line in (RECORD / "pairs" / pid / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    ]


def test_the_published_v2_row_is_the_shipped_records_row() -> None:
    row = board_row(RECORD)
    assert row[:2] == ["llm", MODEL]
    assert published_row("llm", MODEL, SECTION) == row


def test_the_legal_line_counts_the_decisions_the_record_holds() -> None:
    rows = decisions()
    legal = sum(not (r.get("error") or r["outcome"] == "policy_error") for r in rows)
    assert f"llm {MODEL} {legal} of {len(rows)} (" in legal_line(build_board([RECORD]).rows)
    assert legal >= 0.99 * len(rows)  # constrained decoding: the published share


def test_the_shipped_v2_record_is_small_and_holds_only_what_a_replay_reads() -> None:
    files = [p for p in RECORD.rglob("*") if p.is_file()]
    assert {p.name for p in files} <= KEPT
    assert sum(p.stat().st_size for p in files) < MAX_BYTES
    assert sorted(p.name for p in (RECORD / "pairs").iterdir()) == sorted(entry_rows(RECORD)["pair_id"])


def test_a_replay_without_the_model_plays_the_recorded_decisions_to_the_same_outcomes(tmp_path: Path) -> None:
    script = tmp_path / "no_model.py"
    script.write_text(WITHOUT_MODEL)
    out = tmp_path / "replayed"
    argv = ["benchmark", "--policy", "replay", "--replay", str(RECORD), "--seeds", "1000"]
    argv += ["--definition", str(REPO / "suites" / "benchmark-v2.yaml")]
    argv += ["--out", str(out), "--jobs", "1"]
    done = subprocess.run([sys.executable, str(script), *argv], capture_output=True, text=True, timeout=1800, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    a, b = entry_rows(RECORD), entry_rows(out)
    a = a[a["seed"] == 1000].reset_index(drop=True)
    assert len(a) == len(b) == 10 and set(b["controller"]) == {"replay"}
    pd.testing.assert_frame_equal(
        a.sort_values(["scenario", "seed"])[["scenario", *COMPARED]].reset_index(drop=True),
        b.sort_values(["scenario", "seed"])[["scenario", *COMPARED]].reset_index(drop=True),
    )
