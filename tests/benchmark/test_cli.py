"""`mam-bench benchmark` then `mam-bench report --leaderboard`, on the reduced benchmark: a score
for each world, resume, refusals before any file is touched, the HTML form, several folders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from tests.support.cli import cli_in_process

WORLDS = ("schelling", "synchronization", "voter")


def board_row(text: str, controller: str) -> list[str]:
    """The leaderboard's cells of one controller (the first table of the Markdown)."""
    table = text.split("### Per scenario")[0]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == controller:
            return cells
    raise AssertionError(f"no {controller} row in:\n{text}")


def header(text: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith("| controller"))
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_benchmark_then_leaderboard_scores_every_world(tmp_path: Path, tiny: Path, capsys) -> None:
    out = tmp_path / "h"
    code, err = cli_in_process(
        capsys, "benchmark", "--policy", "heuristic", "--definition", str(tiny), "--out", str(out), "--jobs", "1"
    )
    assert code == 0, err
    table = pd.read_csv(out / "table.csv")
    assert len(table) == 3 * 3 * 2  # 3 scenarios x (heuristic, stay, mimic) x 2 seeds
    manifest = json.loads((out / "benchmark.json").read_text())
    assert manifest["benchmark"] == "mam-bench-tiny" and manifest["tier"] == "quick" and manifest["seeds"] == [0, 1]

    from mam_bench.cli import main

    capsys.readouterr()
    assert main(["report", str(out), "--leaderboard"]) == 0
    text = capsys.readouterr().out
    head, row = header(text), board_row(text, "heuristic")
    assert head[3 : 3 + len(WORLDS)] == list(WORLDS)
    for world in WORLDS:
        cell = row[head.index(world)]
        assert re.fullmatch(r"-?\d\.\d\d", cell), (world, cell)
        assert -1.0 <= float(cell) <= 1.0
    assert re.match(r"-?\d\.\d\d( \[-?\d\.\d\d, -?\d\.\d\d\])?$", row[2]), row[2]
    for scenario in ("schelling-integrate", "synchronization-help", "voter-spread"):
        assert f"| {scenario} |" in text

    # a rerun resumes: nothing is played again
    code, err = cli_in_process(
        capsys, "benchmark", "--policy", "heuristic", "--definition", str(tiny), "--out", str(out)
    )
    assert code == 0 and "18 of 18 pairs already finished" in err


def test_heuristic_scores_one_where_it_beats_the_baselines(tmp_path: Path, tiny: Path, capsys) -> None:
    """The reference under test scores exactly 1 on a seed where its gap clears the floor: the
    scores are computed from the rows, so recompute one from the table by hand."""
    from mam_bench.benchmark.leaderboard import build_board

    out = tmp_path / "h"
    assert (
        cli_in_process(capsys, "benchmark", "--policy", "heuristic", "--definition", str(tiny), "--out", str(out))[0]
        == 0
    )
    board = build_board([out])
    (row,) = board.rows
    table = pd.read_csv(out / "table.csv")
    for name, info in board.scenarios.items():
        world = info.world
        for seed, score in row.scores[name].items():
            t = table[(table["world"] == world) & (table["seed"] == seed)].set_index("controller")["lift"]
            base = max(t["stay"], t["mimic"])
            gap = t["heuristic"] - base
            expected = 1.0 if gap >= info.floor else max(-1.0, gap / info.floor)
            assert score == expected, (name, seed, score, expected)


def test_refusals_touch_nothing(tmp_path: Path, tiny: Path, capsys) -> None:
    out = tmp_path / "x"
    bad = [
        (["--policy", "nope"], "controller"),
        (["--controller", "nope"], "controller"),
        (["--policy", "heuristic", "--model", "fake:a"], "model"),
        (["--policy", "llm"], "model"),
        (["--policy", "heuristic", "--tier", "huge"], "tier"),
        (["--policy", "heuristic", "--seeds", "3-1"], "seeds"),
        (["--policy", "replay"], "replay"),
        (["--policy", "heuristic", "--definition", str(tmp_path / "none.yaml")], "definition"),
    ]
    for args, field in bad:
        argv = ["benchmark", *args, "--out", str(out)]
        if "--definition" not in args:
            argv += ["--definition", str(tiny)]
        code, err = cli_in_process(capsys, *argv)
        assert code == 2 and err.startswith(f"error: {field}"), (args, err)
        assert not out.exists()


def test_another_controller_into_the_same_folder_is_refused(tmp_path: Path, tiny: Path, capsys) -> None:
    out = tmp_path / "r"
    base = ["benchmark", "--definition", str(tiny), "--out", str(out), "--seeds", "0"]
    assert cli_in_process(capsys, *base, "--policy", "random")[0] == 0
    before = (out / "table.csv").read_text()
    code, err = cli_in_process(capsys, *base, "--policy", "stay")
    assert code == 2 and err.startswith("error: out:"), err
    assert (out / "table.csv").read_text() == before


def test_two_folders_side_by_side_and_html(tmp_path: Path, tiny: Path, capsys) -> None:
    from mam_bench.cli import main

    for policy in ("heuristic", "random"):
        argv = ["benchmark", "--policy", policy, "--definition", str(tiny), "--out", str(tmp_path / policy)]
        assert cli_in_process(capsys, *argv)[0] == 0
    assert main(["report", str(tmp_path / "heuristic"), str(tmp_path / "random"), "--leaderboard"]) == 0
    text = capsys.readouterr().out
    assert board_row(text, "heuristic") != board_row(text, "random")
    # side by side, each folder's controller keeps the scores it has alone (same baselines, same
    # reference, same floor), and a scenario's seeds are counted once, not once per folder
    from mam_bench.benchmark.leaderboard import build_board

    both = build_board([tmp_path / "heuristic", tmp_path / "random"])
    alone = {r.controller: r.scores for p in ("heuristic", "random") for r in build_board([tmp_path / p]).rows}
    assert {r.controller: r.scores for r in both.rows} == alone
    assert all(len(info.gaps) == 2 for info in both.scenarios.values())
    assert "| 0/2 |" in text or "| 1/2 |" in text or "| 2/2 |" in text
    page = tmp_path / "board.html"
    assert (
        main(["report", str(tmp_path / "heuristic"), str(tmp_path / "random"), "--leaderboard", "--out", str(page)])
        == 0
    )
    html = page.read_text()
    assert '<table id="leaderboard">' in html and "<td>random</td>" in html and '<table id="scenarios">' in html
    # an experiment folder is no benchmark folder
    (tmp_path / "plain").mkdir()
    code, err = cli_in_process(capsys, "report", str(tmp_path / "plain"), "--leaderboard")
    assert code == 2 and "benchmark.json" in err


def test_a_world_without_scores_is_named_beside_the_aggregate(tmp_path: Path, tiny: Path, capsys) -> None:
    """A controller whose pairs of one world are all missing (invalid, or not run) gets an aggregate
    over fewer worlds, and the cell says how many: never a silent drop."""
    from mam_bench.benchmark.leaderboard import build_board, tables

    out = tmp_path / "h"
    argv = ["benchmark", "--policy", "random", "--definition", str(tiny), "--out", str(out), "--seeds", "0"]
    assert cli_in_process(capsys, *argv)[0] == 0
    full = tables(build_board([out]))[1][0][2]
    assert "worlds)" not in full
    table = pd.read_csv(out / "table.csv", keep_default_na=False)
    table.loc[(table["world"] == "voter") & (table["controller"] == "random"), "valid"] = False
    table.to_csv(out / "table.csv", index=False)
    board = build_board([out])
    head, body, _, _ = tables(board)
    assert body[0][2].endswith("(2/3 worlds)") and body[0][head.index("voter")] == "NA"
    assert board.rows[0].invalid == 1
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "benchmark.json").write_text("{}")
    code, err = cli_in_process(capsys, "report", str(tmp_path / "bad"), "--leaderboard")
    assert code == 2 and "damaged" in err


def test_an_empty_out_is_refused_before_anything_is_written(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(capsys, "benchmark", "--policy", "heuristic", "--out", "")
    assert (code, err) == (2, "error: out: must not be empty")
    assert list(tmp_path.iterdir()) == []


def test_a_v2_benchmark_plays_its_placebos_and_the_oracle_in_its_own_folder(
    tmp_path: Path, tiny_v2: Path, capsys
) -> None:
    """rule joins stay and mimic, and the oracle (the reference) is played in the same folder on
    the same seeds; the board's zero and one are those rows."""
    from mam_bench.benchmark.headroom import Headroom
    from mam_bench.benchmark.leaderboard import build_board
    from mam_bench.cli import main

    out = tmp_path / "h"
    argv = ["benchmark", "--policy", "heuristic", "--definition", str(tiny_v2), "--out", str(out), "--jobs", "1"]
    assert cli_in_process(capsys, *argv)[0] == 0
    manifest = json.loads((out / "benchmark.json").read_text())
    assert manifest["score"] == "v2" and manifest["seeds"] == [0, 1, 2]
    table = pd.read_csv(out / "table.csv")
    for world in WORLDS:
        played = table[table["world"] == world].groupby("controller")["seed"].apply(sorted).to_dict()
        assert played == {c: [0, 1, 2] for c in ("heuristic", "mimic", "oracle", "rule", "stay")}, (world, played)
    assert (table[table["controller"] == "rule"]["lift"] == 0).all()  # null steering, by construction
    board = build_board([out])
    (row,) = board.rows
    for name, info in board.scenarios.items():
        (head,) = info.heads
        assert isinstance(head, Headroom)
        lifts = table[table["world"] == info.world].set_index(["controller", "seed"])["lift"]
        assert list(head.base + head.gaps) == pytest.approx([lifts["oracle", s] for s in (0, 1, 2)], abs=1e-12)
        assert list(head.base) == pytest.approx([lifts[head.placebo, s] for s in (0, 1, 2)], abs=1e-12)
        assert row.lifts[name] == pytest.approx({s: lifts["heuristic", s] for s in (0, 1, 2)})
    capsys.readouterr()
    assert main(["report", str(out), "--leaderboard"]) == 0
    text = capsys.readouterr().out
    assert "### Per scenario" in text and "best placebo" in text and "Score (v2)" in text


def test_an_unknown_reference_is_refused_before_anything_runs(tmp_path: Path, tiny_v2: Path, capsys) -> None:
    import yaml

    data = yaml.safe_load(tiny_v2.read_text())
    data["scenarios"][1]["reference"] = "nope"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    out = tmp_path / "x"
    code, err = cli_in_process(capsys, "benchmark", "--policy", "random", "--definition", str(bad), "--out", str(out))
    assert code == 2 and err.startswith("error: definition.scenarios.1.reference: unknown controller 'nope'")
    assert not out.exists()
