"""What a shipped benchmark record must hold for `--policy replay`: benchmark.json, table.csv and,
per pair of the controller under test, result.json and decisions.jsonl. Nothing else (no per-round
series, no baseline pairs, no cache) is needed to reproduce its rows, so a data folder stays small."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd

from mam_bench.benchmark.leaderboard import build_board
from tests.benchmark.test_replay import COMPARED, entry_rows
from tests.support.cli import cli_in_process

KEEP = {"result.json", "decisions.jsonl"}


def test_a_pruned_record_still_replays_to_the_same_rows(tmp_path: Path, tiny: Path, capsys) -> None:
    rec, rep = tmp_path / "random", tmp_path / "replayed"
    argv = ["benchmark", "--policy", "random", "--definition", str(tiny), "--out", str(rec), "--seeds", "1"]
    assert cli_in_process(capsys, *argv)[0] == 0
    before = entry_rows(rec)
    mine = set(before["pair_id"])
    for child in rec.iterdir():
        if child.name not in ("benchmark.json", "table.csv", "pairs"):
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    for pair in (rec / "pairs").iterdir():
        if pair.name not in mine:
            shutil.rmtree(pair)
            continue
        for f in pair.iterdir():
            if f.name not in KEEP:
                shutil.rmtree(f) if f.is_dir() else f.unlink()
    assert sorted(p.name for p in (rec / "pairs").iterdir()) == sorted(mine)
    argv = ["benchmark", "--policy", "replay", "--replay", str(rec), "--definition", str(tiny), "--out", str(rep)]
    code, err = cli_in_process(capsys, *argv)
    assert code == 0, err
    after = entry_rows(rep)
    pd.testing.assert_frame_equal(before[["scenario", *COMPARED]], after[["scenario", *COMPARED]])
    assert json.loads((rep / "benchmark.json").read_text())["entry"]["replay_of"] == "random"
    assert build_board([rep]).rows[0].scores == build_board([rec]).rows[0].scores
