"""`mam-bench run` and `worlds`: the records and keys later tools rely on."""

from __future__ import annotations

import json
import subprocess

from mam_bench.cli import main
from mam_bench.records import read_jsonl, read_rounds

RESULT_KEYS = {
    "world",
    "seed",
    "params",
    "objective",
    "record_version",
    "controller",
    "metric",
    "direction",
    "reference",
    "treatment",
    "delta",
    "lift",
    "relative",
}


def test_run_writes_a_complete_run_directory(tmp_path, capsys):
    out = tmp_path / "pair"
    assert main(["run", "schelling", "--seed", "22", "--policy", "random", "--rounds", "5", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for word in ("reference", "treatment", "delta", "lift", "relative", "audit"):
        assert word in printed
    result = json.loads((out / "result.json").read_text())
    assert RESULT_KEYS <= set(result)
    for run in ("reference", "treatment"):
        assert {"status", "rounds", "initial", "final"} <= set(result[run])
    audit = result["treatment"]["audit"]
    assert audit["accepted"] + audit["stay"] + audit["failed"] == 16 * 5
    tre = read_jsonl(out / "treatment.jsonl")
    assert [row["round"] for row in tre] == list(range(6))
    assert set(tre[0]) == {"round", "status", "metrics"}  # the snapshot is in treatment.snapshots
    assert {"round", "metrics", "positions"} <= set(read_rounds(out, "treatment.jsonl")[0])
    ref = read_rounds(out, "reference.jsonl")
    assert ref[0]["positions"] == read_rounds(out, "treatment.jsonl")[0]["positions"]
    decisions = read_jsonl(out / "decisions.jsonl")
    assert len(decisions) == 16 * 5
    board = read_jsonl(out / "board.jsonl")
    assert all(e["kind"] == "authoritative" for e in board) and len(board) == 5
    assert result["params"]["threshold"] == "3/4"


def test_influence_ids_are_taken_by_id(tmp_path):
    out = tmp_path / "ids"
    assert main(["run", "schelling", "--influence-ids", "5,290,17", "--rounds", "2", "--out", str(out)]) == 0
    result = json.loads((out / "result.json").read_text())
    assert result["influence_ids"] == [5, 17, 290]


def test_worlds_lists_schelling_in_a_real_process(cli_env, mam_bench_cmd):
    proc = subprocess.run([*mam_bench_cmd, "worlds"], capture_output=True, text=True, env=cli_env, timeout=120)
    assert proc.returncode == 0
    line = next(l for l in proc.stdout.splitlines() if l.startswith("schelling"))
    assert "integrate" in line and "oeh" in line


def test_landscape_writes_one_row_per_run(tmp_path, capsys):
    out = tmp_path / "l.csv"
    assert (
        main(
            [
                "landscape",
                "schelling",
                "--thresholds",
                "1/2,3/4",
                "--vacancies",
                "0.25",
                "--seeds",
                "0-2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    lines = out.read_text().splitlines()
    assert lines[0] == "threshold,vacancy,seed,status,rounds,final_satisfaction,final_homophily"
    assert len(lines) == 1 + 2 * 3
    assert lines[1].startswith("1/2,1/4,0,")
    assert "3/4" in capsys.readouterr().out
