"""The v2 leaderboard on constructed benchmark folders (a manifest and a table, no pair played):
each folder against its own placebos and oracle, the oracle row exactly 1, a better controller above
1, unscoreable scenarios and partial rows named, and folders that cannot be compared refused."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from mam_bench.benchmark.leaderboard import build_board, leaderboard_html, leaderboard_markdown
from mam_bench.benchmark.leaderboard_v2 import tables_v2
from mam_bench.errors import ConfigError
from mam_bench.experiment.table import COLUMNS
from tests.support.cli import cli_in_process

SEEDS = [1000, 1001, 1002, 1003]
#: scenario -> row -> lift per seed; world a has a movable and an unmovable scenario, world b one
LIFTS = {
    "a-up": {
        "oracle": [6.0, 5.0, 7.0, 6.0],
        "stay": [1.0, 0.5, 1.5, 1.0],
        "mimic": [0.0, 0.2, -0.2, 0.1],
        "rule": [0.0] * 4,
    },
    "a-flat": {"oracle": [0.0] * 4, "stay": [0.0] * 4, "mimic": [0.0] * 4, "rule": [0.0] * 4},
    "b-up": {"oracle": [3.0, 2.5, 3.5, 3.0], "stay": [-1.0, -0.5, -1.2, -0.8], "rule": [0.0] * 4},
}
WORLDS = {"a-up": "a", "a-flat": "a", "b-up": "b"}


def write_folder(path: Path, entry: str, lifts: dict, seeds=SEEDS, tier="quick", invalid=(), **manifest) -> Path:
    """A v2 benchmark folder whose `entry` rows (controller under test) have the given lifts; the
    oracle, stay, mimic and rule rows come from LIFTS. invalid: (scenario, seed) of the entry."""
    path.mkdir(parents=True)
    roles: dict[str, list[dict]] = {}
    rows = []
    for name, by_role in LIFTS.items():
        played = {**by_role, "entry": lifts[name]}
        for role, values in played.items():
            key = f"{name}-{role}"[:16].ljust(16, "x")
            if role == "entry":
                item = {"scenario": name, "role": "entry", "controller": entry, "model": ""}
            elif role == "oracle":
                item = {"scenario": name, "role": "reference", "controller": "oracle", "model": ""}
            else:
                item = {"scenario": name, "role": role, "controller": role, "model": ""}
            roles.setdefault(key, []).append(item)
            for seed, lift in zip(seeds, values):
                rows.append(
                    {
                        "pair_id": f"{key}-{seed}",
                        "case_key": key,
                        "seed": seed,
                        "lift": lift,
                        "valid": (name, seed) not in invalid or role != "entry",
                        "requests": 0,
                        "input_tokens": 0,
                        "output_tokens": 0,
                        "cost": 0.0,
                        "wall_seconds": 0.1,
                    }
                )
    with open(path / "table.csv", "w", newline="", encoding="utf-8") as fh:
        # every column a table.csv has (the reader refuses a table without them), the ones this
        # test sets first so that a test may edit a line by position
        rest = [c for c in COLUMNS if c not in rows[0]]
        w = csv.DictWriter(fh, fieldnames=[*rows[0], *rest], restval="")
        w.writeheader()
        w.writerows(rows)
    body = {
        "score": "v2",
        "benchmark": "mam-bench-test-v2",
        "definition_hash": "abc",
        "tier": tier,
        "seeds": list(seeds),
        "entry": {"controller": entry},
        "scenarios": [{"name": n, "world": w, "objective": "up"} for n, w in WORLDS.items()],
        "roles": roles,
        **manifest,
    }
    (path / "benchmark.json").write_text(json.dumps(body), encoding="utf-8")
    return path


def mix(share: float) -> dict[str, list[float]]:
    """Lifts at `share` of the way from the best placebo (stay in a-up, rule in b-up) to the oracle."""
    out = {}
    for name, by_role in LIFTS.items():
        base = by_role["stay"] if name == "a-up" else by_role["rule"]
        out[name] = [b + share * (o - b) for b, o in zip(base, by_role["oracle"])]
    return out


def rows_of(board) -> dict[str, list[str]]:
    t = tables_v2(board)
    return {r[0]: r for r in t["ranked"][1] + t["apart"][1]}


def test_oracle_reads_one_better_reads_above_one_between_reads_a_share(tmp_path: Path) -> None:
    folders = [
        write_folder(tmp_path / "o", "oracle", {n: v["oracle"] for n, v in LIFTS.items()}),
        write_folder(tmp_path / "x", "better", mix(1.5)),
        write_folder(tmp_path / "h", "heuristic", mix(0.4)),
        write_folder(tmp_path / "r", "rule", {n: v["rule"] for n, v in LIFTS.items()}),
    ]
    board = build_board(folders)
    by = {r.controller: r for r in board.rows}
    oracle = board.aggregate(by["oracle"])
    assert (oracle.value, oracle.low, oracle.high) == (1.0, 1.0, 1.0)
    assert board.aggregate(by["better"]).value == pytest.approx(1.5) and board.aggregate(by["better"]).low > 1
    h = board.aggregate(by["heuristic"])
    assert h.value == pytest.approx(0.4) and 0 < h.low < h.value < h.high < 1
    assert board.aggregate(by["rule"]).value < 0  # stay is a-up's zero; rule is b-up's, scoring 0
    assert by["rule"].scores["b-up"].value == 0.0
    cells = rows_of(board)
    assert cells["oracle"][2] == "1.00 [1.00, 1.00]"
    assert [r[0] for r in tables_v2(board)["ranked"][1]] == ["better", "oracle", "heuristic", "rule"]


def test_a_scenario_without_headroom_is_na_with_its_reason_and_left_out(tmp_path: Path) -> None:
    board = build_board([write_folder(tmp_path / "h", "heuristic", mix(0.4))])
    assert "no headroom" in board.scenarios["a-flat"].reason and not board.scenarios["a-up"].reason
    (row,) = board.rows
    assert set(row.scores) == {"a-up", "b-up"}  # world a is a-up alone, not a-up and a 0/0
    scen = {r[0]: r for r in tables_v2(board)["scenarios"][1]}
    assert scen["a-flat"][5].startswith("NA: no headroom") and scen["a-flat"][6] == "NA"
    assert scen["a-up"][3] == "stay" and scen["b-up"][3] == "rule" and scen["a-up"][5] == "yes"
    text = leaderboard_markdown(board)
    assert "0.40 [" in text and "Not ranked" not in text


def test_a_row_missing_a_seed_is_listed_apart_not_ranked(tmp_path: Path) -> None:
    folders = [
        write_folder(tmp_path / "h", "heuristic", mix(0.4)),
        write_folder(tmp_path / "l", "llm", mix(0.9), invalid={("b-up", 1001)}),
    ]
    board = build_board(folders)
    t = tables_v2(board)
    assert [r[0] for r in t["ranked"][1]] == ["heuristic"]
    (apart,) = t["apart"][1]
    assert apart[0] == "llm" and apart[2] == "not ranked (1/2 scored worlds)" and apart[4] == "NA"
    assert apart[3] == "0.90" and apart[-1] == "1"  # world a is still shown; one invalid pair counted
    scen = {r[0]: r for r in t["scenarios"][1]}
    assert scen["b-up"][-1] == "NA (invalid on 1/4 seeds)"
    assert "### Not ranked" in leaderboard_markdown(board)
    page = leaderboard_html(board, "")
    assert '<table id="apart">' in page and '<table id="leaderboard">' in page


def test_each_folder_is_scored_against_its_own_placebos(tmp_path: Path) -> None:
    """The same controller lifts score differently against another folder's zero."""
    a = write_folder(tmp_path / "a", "heuristic", mix(0.4))
    b = write_folder(tmp_path / "b", "random", mix(0.4))
    table = (b / "table.csv").read_text().splitlines()
    # folder b's stay did better in a-up: the same lifts are a smaller share there
    out = [table[0]]
    for line in table[1:]:
        cells = line.split(",")
        if cells[1].startswith("a-up-stay"):
            cells[3] = str(float(cells[3]) + 1.0)
        out.append(",".join(cells))
    (b / "table.csv").write_text("\n".join(out) + "\n")
    both = build_board([a, b])
    by = {r.controller: r for r in both.rows}
    assert by["heuristic"].scores["a-up"].value == pytest.approx(0.4)
    assert by["random"].scores["a-up"].value < 0.4
    assert by["heuristic"].scores == build_board([a]).rows[0].scores


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seeds": [1000, 1001, 1002, 1004]}, "seeds"),
        ({"tier": "full"}, "tier"),
        ({"definition_hash": "def"}, "definition"),
        ({"benchmark": "mam-bench-v1"}, "definition"),
    ],
)
def test_folders_that_differ_are_refused_naming_what_differs(tmp_path: Path, capsys, change, field) -> None:
    a = write_folder(tmp_path / "a", "heuristic", mix(0.4))
    seeds = change.pop("seeds", SEEDS)
    tier = change.pop("tier", "quick")
    b = write_folder(tmp_path / "b", "random", mix(0.2), seeds=seeds, tier=tier, **change)
    with pytest.raises(ConfigError) as exc:
        build_board([a, b])
    assert exc.value.field == field
    code, err = cli_in_process(capsys, "report", str(a), str(b), "--leaderboard")
    assert code == 2 and err.startswith(f"error: {field}: ") and len(err.strip().splitlines()) == 1


def test_one_controller_in_two_folders_is_refused(tmp_path: Path) -> None:
    a = write_folder(tmp_path / "a", "heuristic", mix(0.4))
    b = write_folder(tmp_path / "b", "heuristic", mix(0.5))
    with pytest.raises(ConfigError, match="both play heuristic"):
        build_board([a, b])


def test_a_folder_stopped_early_reads_incomplete_with_its_counts(tmp_path: Path) -> None:
    """A run killed before its rule placebos played: not 'not a v2 benchmark run' but how far it got."""
    folder = write_folder(tmp_path / "h", "heuristic", mix(0.4))
    table = folder / "table.csv"
    lines = table.read_text(encoding="utf-8").splitlines()
    kept = [lines[0], *(line for line in lines[1:] if "-rule" not in line.split(",")[1])]
    table.write_text("\n".join(kept) + "\n", encoding="utf-8")
    total = sum(len(by_role) + 1 for by_role in LIFTS.values()) * len(SEEDS)  # every role and the entry, every seed
    board = build_board([folder])
    scen = {r[0]: r for r in tables_v2(board)["scenarios"][1]}
    said = f"NA: incomplete: {len(kept) - 1} of {total} pairs; rerun the same command to resume"
    assert len(kept) - 1 < total
    assert scen["a-up"][5] == said and scen["b-up"][5] == said


def test_a_complete_folder_is_not_called_incomplete(tmp_path: Path) -> None:
    board = build_board([write_folder(tmp_path / "h", "heuristic", mix(0.4))])
    assert not any("incomplete" in (s.reason or "") for s in board.scenarios.values())
