"""What a shipped benchmark record must hold for `--policy replay`: benchmark.json, table.csv and,
per pair of the controller under test, result.json and decisions.jsonl. Nothing else (no per-round
series, no baseline pairs, no cache) is needed to reproduce its rows, so a data folder stays small."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from mam_bench.benchmark.leaderboard import build_board
from tests.benchmark.test_replay import COMPARED, entry_rows
from tests.support.cli import cli_in_process

KEEP = {"result.json", "decisions.jsonl"}
SHIP = Path(__file__).resolve().parents[2] / "scripts" / "ship_benchmark_record.py"


def test_a_pruned_record_still_replays_to_the_same_rows(tmp_path: Path, tiny: Path, capsys) -> None:
    rec, rep = tmp_path / "random", tmp_path / "replayed"
    argv = ["benchmark", "--policy", "random", "--definition", str(tiny), "--out", str(rec), "--seeds", "1"]
    assert cli_in_process(capsys, *argv)[0] == 0
    before = entry_rows(rec)
    mine = set(before["pair_id"])
    shipped = tmp_path / "shipped"
    done = subprocess.run([sys.executable, str(SHIP), str(rec), str(shipped)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (shipped / "pairs").iterdir()) == sorted(mine)
    top = {"benchmark.json", "table.csv", "provenance.json"}
    assert {p.name for p in shipped.rglob("*") if p.is_file()} == top | KEEP
    # a second ship to the same target is refused and changes nothing
    again = subprocess.run([sys.executable, str(SHIP), str(rec), str(shipped)], capture_output=True, text=True)
    assert again.returncode == 2 and again.stderr.startswith("error: target:")
    shutil.rmtree(rec)
    rec = shipped
    argv = ["benchmark", "--policy", "replay", "--replay", str(rec), "--definition", str(tiny), "--out", str(rep)]
    code, err = cli_in_process(capsys, *argv)
    assert code == 0, err
    after = entry_rows(rep)
    pd.testing.assert_frame_equal(before[["scenario", *COMPARED]], after[["scenario", *COMPARED]])
    assert json.loads((rep / "benchmark.json").read_text())["entry"]["replay_of"] == "random"
    assert build_board([rep]).rows[0].scores == build_board([rec]).rows[0].scores
