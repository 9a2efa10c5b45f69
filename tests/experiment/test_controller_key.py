"""A suite names a case's controller `controller:`; `policy:`, its old name, still reads, with one
warning line for the whole file, and plays the same pairs; a case giving both is refused by field."""

from __future__ import annotations

import csv
from pathlib import Path

import yaml

from mam_bench.commands.experiment import read_suite
from mam_bench.experiment.suite import Suite, load_suite, pairs_of
from tests.support.cli import cli_in_process

SMALL = {"world": "schelling", "params": {"size": 10, "max_rounds": 20}, "rounds": 2, "influence": 2}


def suite_file(folder: Path, key: str, name: str = "suite.yaml") -> Path:
    cases = [{**SMALL, "name": "rnd", key: "random"}, {**SMALL, "name": "stay", key: "stay"}]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(yaml.safe_dump({"name": "keys", "seeds": 1, "baselines": [], "cases": cases}), encoding="utf-8")
    return path


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning:")]


def test_the_old_key_reads_with_one_warning_line_per_file(tmp_path, capsys) -> None:
    new, old = suite_file(tmp_path / "new", "controller"), suite_file(tmp_path / "old", "policy")
    written = read_suite(str(new))
    assert warnings(capsys.readouterr().err) == []
    renamed = read_suite(str(old))
    assert warnings(capsys.readouterr().err) == [f'warning: {old}: "policy:" is now "controller:"']
    assert [c.controller for c in renamed.cases] == ["random", "stay"]
    assert [p.pair_id for p in pairs_of(renamed)] == [p.pair_id for p in pairs_of(written)]
    load_suite(old)  # the library's reader says it too
    assert len(warnings(capsys.readouterr().err)) == 1


def test_both_suites_play_the_same_pairs_to_the_same_table(tmp_path, capsys) -> None:
    tables = {}
    for key in ("controller", "policy"):
        path = suite_file(tmp_path / key, key)
        code, err = cli_in_process(capsys, "experiment", str(path), "--out", str(tmp_path / key / "out"), "--jobs", "1")
        assert code == 0, err
        assert len(warnings(err)) == (1 if key == "policy" else 0), err
        with (tmp_path / key / "out" / "table.csv").open(encoding="utf-8", newline="") as fh:
            rows = [{k: v for k, v in r.items() if k not in ("wall_seconds", "provenance")} for r in csv.DictReader(fh)]
        tables[key] = sorted(rows, key=lambda r: (r["pair_id"], r.get("metric", "")))
    assert tables["controller"] and tables["controller"] == tables["policy"]


def test_a_case_giving_both_keys_is_refused_before_anything_is_written(tmp_path, capsys) -> None:
    path = tmp_path / "both.yaml"
    case = {**SMALL, "controller": "random", "policy": "stay"}
    path.write_text(yaml.safe_dump({"seeds": 1, "cases": [{**SMALL, "controller": "stay"}, case]}), encoding="utf-8")
    code, err = cli_in_process(capsys, "experiment", str(path), "--out", str(tmp_path / "out"))
    assert code == 2 and err.startswith('error: cases[1].policy: give "controller:" only'), err
    assert not (tmp_path / "out").exists()


def test_a_suite_json_recorded_before_the_rename_reads() -> None:
    """An experiment folder's suite.json (the report reads it as a record) says `policy`."""
    old = Suite(cases=[{**SMALL, "policy": "random"}], seeds=1)
    new = Suite(cases=[{**SMALL, "controller": "random"}], seeds=1)
    assert old == new and [p.pair_id for p in pairs_of(old)] == [p.pair_id for p in pairs_of(new)]


def test_the_content_key_is_the_one_folders_recorded_before_the_rename() -> None:
    """Pair ids and case keys hash the controller under its old name, so a folder made before the
    rename resumes and reports with the keys it holds (these three were computed by the code
    before it: a named controller, the default one, and a model's)."""
    from mam_bench.experiment.suite import Case, pair_id

    assert pair_id(Case(world="schelling", controller="random"), 0, 0) == "0d60c1a0ab458026"
    assert pair_id(Case(world="schelling"), 3, 1) == "df388eec7cf1d525"
    assert Case(world="voter", model="fake:x").content_key()[:16] == "119b61f0d2cb49d2"
