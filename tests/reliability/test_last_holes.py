"""Nothing overwritten without --force, no folder of the other kind, a resume that
checks everything before it removes anything, duplicates refused, a tamper-evident
decisions.jsonl, and the tracebacks and unclear messages the probe found."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from tests.reliability.test_fuzz_cli import tree_state
from tests.support.cli import cli_in_process

RUN = ["run", "schelling", "--seed", "3", "--param", "size=10", "--rounds", "2"]
LANDSCAPE = ["landscape", "schelling", "--thresholds", "1/2", "--vacancies", "0.2", "--seeds", "0,1", "--size", "10"]
SUITE = {"name": "h", "seeds": 2, "cases": [{"world": "schelling", "params": {"size": 10}, "rounds": 2}]}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A finished run (R) and a finished experiment (E), copied per test."""
    from mam_bench.cli import main

    root = tmp_path_factory.mktemp("made")
    assert main([*RUN, "--out", str(root / "R")]) == 0
    (root / "suite.yaml").write_text(yaml.safe_dump(SUITE))
    assert main(["experiment", str(root / "suite.yaml"), "--out", str(root / "E"), "--jobs", "1"]) == 0
    return root


@pytest.fixture
def work(made, tmp_path) -> Path:
    for name in ("R", "E", "suite.yaml"):
        src = made / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    (tmp_path / "notes.txt").write_text("my notes\n")
    return tmp_path


def refused(capsys, argv: list[str], field: str, root: Path) -> str:
    """Exit 2 with `error: FIELD: ...`, and every file under root exactly as it was."""
    before = tree_state(root)
    code, err = cli_in_process(capsys, *argv)
    assert code == 2, err
    assert err.startswith(f"error: {field}: "), err
    assert "Traceback" not in err
    assert tree_state(root) == before
    return err


# --- files overwritten without --force ---------------------------------------------------------


def test_landscape_refuses_a_file_it_did_not_write(work, capsys):
    notes = work / "notes.txt"
    err = refused(capsys, [*LANDSCAPE, "--out", str(notes)], "out", work)
    assert "--force" in err
    code, err = cli_in_process(capsys, *LANDSCAPE, "--out", str(notes), "--force")
    assert code == 0, err
    assert (work / "notes.txt.replaced-1").read_text() == "my notes\n"
    assert notes.read_text().startswith("threshold,vacancy,seed")
    # its own CSV a rerun may replace
    assert cli_in_process(capsys, *LANDSCAPE, "--out", str(notes))[0] == 0
    assert not (work / "notes.txt.replaced-2").exists()


def test_report_refuses_a_file_it_did_not_write(work, capsys):
    suite = work / "suite.yaml"
    refused(capsys, ["report", str(work / "E"), "--out", str(suite)], "out", work)
    assert cli_in_process(capsys, "report", str(work / "E"), "--out", str(suite), "--force")[0] == 0
    assert yaml.safe_load((work / "suite.yaml.replaced-1").read_text()) == SUITE
    assert cli_in_process(capsys, "report", str(work / "E"))[0] == 0
    assert cli_in_process(capsys, "report", str(work / "E"))[0] == 0  # its own report.html


def test_report_refuses_a_figures_folder_it_did_not_write(work, capsys):
    """The report's PNG/SVG panels go to REPORT-figures/: a folder of the user's by that name is
    neither written into nor removed without --force, and the report's own is rewritten whole."""
    mine = work / "report-figures"
    mine.mkdir()
    (mine / "lift-schelling-integration.png").write_bytes(b"my own figure")
    refused(capsys, ["report", str(work / "E"), "--out", str(work / "report.html")], "out", work)
    assert cli_in_process(capsys, "report", str(work / "E"), "--out", str(work / "report.html"), "--force")[0] == 0
    assert (work / "report-figures.replaced-1" / "lift-schelling-integration.png").read_bytes() == b"my own figure"
    panels = sorted(p.name for p in mine.glob("lift-*"))
    assert panels and all(p.endswith((".png", ".svg")) for p in panels)
    (mine / "lift-stale-panel.png").write_bytes(b"from an older report")  # ours now: a rerun replaces it
    assert cli_in_process(capsys, "report", str(work / "E"), "--out", str(work / "report.html"))[0] == 0
    assert sorted(p.name for p in mine.glob("lift-*")) == panels
    assert not (work / "report-figures.replaced-2").exists()


def test_leaderboard_refuses_a_page_it_did_not_write(work, capsys, tmp_path):
    from tests.benchmark.conftest import TINY

    tiny = tmp_path / "tiny.yaml"
    tiny.write_text(yaml.safe_dump(TINY))
    argv = ["benchmark", "--policy", "stay", "--definition", str(tiny), "--out", str(work / "B"), "--seeds", "1"]
    assert cli_in_process(capsys, *argv)[0] == 0
    page = work / "notes.txt"
    refused(capsys, ["report", str(work / "B"), "--leaderboard", "--out", str(page)], "out", work)
    assert cli_in_process(capsys, "report", str(work / "B"), "--leaderboard", "--out", str(page), "--force")[0] == 0
    assert (work / "notes.txt.replaced-1").read_text() == "my notes\n"
    assert page.read_text().startswith("<!doctype html>")
    assert cli_in_process(capsys, "report", str(work / "B"), "--leaderboard", "--out", str(page))[0] == 0  # its own
    assert not (work / "notes.txt.replaced-2").exists()


def test_animate_refuses_a_gif_it_did_not_write(work, capsys):
    gif = work / "fork.gif"
    gif.write_bytes(b"GIF89a not ours")
    refused(capsys, ["animate", str(work / "R"), "--out", str(gif)], "out", work)
    assert cli_in_process(capsys, "animate", str(work / "R"), "--out", str(gif), "--force")[0] == 0
    assert (work / "fork.gif.replaced-1").read_bytes() == b"GIF89a not ours"
    assert cli_in_process(capsys, "animate", str(work / "R"), "--out", str(gif))[0] == 0  # its own GIF


def test_new_world_refuses_an_existing_folder(work, capsys):
    (work / "w9").mkdir()
    refused(capsys, ["new-world", "w9", "--dir", str(work)], "dir", work)


# --- folders of the other kind, empty names ----------------------------------------------------


def test_a_run_is_not_written_into_an_experiment_folder(work, capsys):
    refused(capsys, [*RUN, "--out", str(work / "E")], "out", work)
    refused(capsys, [*RUN, "--out", str(work / "E"), "--force"], "out", work)


def test_an_experiment_is_not_written_into_a_run_folder(work, capsys):
    refused(capsys, ["experiment", str(work / "suite.yaml"), "--out", str(work / "R")], "out", work)


@pytest.mark.parametrize(
    "argv, field",
    [
        (["experiment", "suite.yaml", "--out", ""], "out"),
        ([*RUN, "--out", ""], "out"),
        ([*LANDSCAPE, "--out", ""], "out"),
        (["report", "E", "--out", ""], "out"),
        (["animate", "R", "--out", ""], "out"),
        (["new-world", "w8", "--dir", ""], "dir"),
    ],
)
def test_an_empty_out_is_refused(work, capsys, monkeypatch, argv, field):
    monkeypatch.chdir(work)
    refused(capsys, argv, field, work)


# --- resume ------------------------------------------------------------------------------------

RECORDS = ("spec.json", "result.json", "reference.jsonl", "treatment.jsonl", "board.jsonl", "decisions.jsonl")


@pytest.mark.parametrize("name", RECORDS)
@pytest.mark.parametrize("damage", ["folder", "garbage", "torn"])
def test_resume_of_a_damaged_folder_removes_nothing(work, capsys, name, damage):
    path = work / "R" / name
    if damage == "folder":
        path.unlink()
        path.mkdir()
        (path / "x").write_text("x")
    elif damage == "garbage":
        path.write_bytes(b"\xff\xfe not json \x00")
    else:
        path.write_text(path.read_text()[:-7])
    refused(capsys, ["run", "--resume", str(work / "R")], "resume", work)


def test_resume_of_a_missing_folder_says_it_does_not_exist(work, capsys):
    err = refused(capsys, ["run", "--resume", str(work / "nowhere")], "resume", work)
    assert "does not exist" in err


def test_resume_of_a_deeply_nested_spec(work, capsys):
    (work / "R" / "spec.json").write_text("[" * 100_000 + "]" * 100_000)
    refused(capsys, ["run", "--resume", str(work / "R")], "resume", work)


def test_resume_names_the_file_a_bad_world_came_from(work, capsys):
    spec = json.loads((work / "R" / "spec.json").read_text())
    (work / "R" / "spec.json").write_text(json.dumps({**spec, "world": "nowhere"}))
    err = refused(capsys, ["run", "--resume", str(work / "R")], "resume", work)
    assert "spec.json" in err and "world" in err


def test_resume_keeps_a_finished_result(work, capsys):
    before = tree_state(work)
    code, err = cli_in_process(capsys, "run", "--resume", str(work / "R"))
    assert code == 0 and "already finished" in err
    assert tree_state(work) == before


# --- duplicates --------------------------------------------------------------------------------


def test_duplicate_seeds_and_params_are_refused(work, capsys):
    refused(capsys, [*LANDSCAPE[:-4], "--seeds", "1,1,1", "--out", str(work / "l.csv")], "seeds", work)
    refused(capsys, [*LANDSCAPE[:-4], "--seeds", "0-3,2", "--out", str(work / "l.csv")], "seeds", work)
    argv = [*RUN, "--param", "threshold=1/2", "--param", "threshold=3/4", "--out", str(work / "r2")]
    refused(capsys, argv, "param.threshold", work)


@pytest.mark.parametrize(
    "text, field",
    [
        ("name: h\nseeds: 2\nseeds: 3\ncases:\n  - {world: schelling, params: {size: 10}, rounds: 2}\n", "seeds"),
        ("name: h\ncases:\n  - {world: schelling, params: {size: 10, size: 12}, rounds: 2}\n", "size"),
        (
            "name: h\ncontrasts: [[a, a]]\ncases:\n  - {name: a, world: schelling, params: {size: 10}, rounds: 2}\n",
            "contrasts[0]",
        ),
        ("name: h\nseeds: [1, 1]\ncases:\n  - {world: schelling, params: {size: 10}, rounds: 2}\n", "seeds"),
        ("name: h\ncases:\n  - {world: schelling, params: {size: 10}, rounds: 100000000}\n", "cases[0].rounds"),
        ("name: h\naxes: {rounds: [2, 2]}\ncases:\n  - {world: schelling, params: {size: 10}}\n", "axes.rounds"),
        (
            "name: h\naxes: {rounds: [2, 100000000]}\ncases:\n  - {world: schelling, params: {size: 10}}\n",
            "axes.rounds",
        ),
    ],
)
def test_suite_duplicates_and_unbounded_rounds_are_refused(work, capsys, text, field):
    (work / "bad.yaml").write_text(text)
    refused(capsys, ["experiment", str(work / "bad.yaml"), "--out", str(work / "E2")], field, work)


# --- replay trusts no edited decisions.jsonl ---------------------------------------------------


def _replay(work: Path) -> list[str]:
    return [*RUN, "--policy", "replay", "--replay", str(work / "R"), "--out", str(work / "R2")]


@pytest.mark.parametrize("edit", ["tamper", "reorder", "truncate", "drop-first", "strip-chain"])
def test_replay_refuses_an_edited_decisions_file(work, capsys, edit):
    path = work / "R" / "decisions.jsonl"
    lines = path.read_text().splitlines()
    if edit == "tamper":
        row = json.loads(lines[3])
        row["decision"] = {"row": 0, "col": 0}
        lines[3] = json.dumps(row)
    elif edit == "reorder":
        lines[1], lines[2] = lines[2], lines[1]
    elif edit == "truncate":
        lines = lines[:-1]
    elif edit == "drop-first":
        lines = lines[1:]
    else:
        lines = [json.dumps({k: v for k, v in json.loads(x).items() if k != "chain"}) for x in lines]
    path.write_text("\n".join(lines) + "\n")
    refused(capsys, _replay(work), "replay", work)


def test_an_untouched_decisions_file_replays(work, capsys):
    code, err = cli_in_process(capsys, *_replay(work))
    assert code == 0, err


# --- tracebacks and messages -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, field",
    [
        (["run", "schelling", "--influence", "300", "--out", "i300"], "influence"),
        ([*RUN, "--out", "x" * 300], "out"),
        ([*RUN, "--max-policy-errors", "1.5", "--out", "m"], "max_policy_errors"),
        ([*LANDSCAPE, "--out", "/dev/full"], "out"),
        ([*LANDSCAPE, "--out", "y" * 300 + ".csv"], "out"),
        (["new-world", "w" * 300], "name"),
        (["new-world", "w2", "--dir", "notes.txt"], "dir"),
        (["new-world", "w2", "--dir", "/proc/self/nope"], "dir"),
        (["new-world", "os"], "name"),
        (["new-world", "sys"], "name"),
        (["new-world", "mesa"], "name"),
        (["new-world", "numpy"], "name"),
        (["report", "E", "--split"], "split"),
    ],
)
def test_clear_errors_instead_of_tracebacks(work, capsys, monkeypatch, argv, field):
    monkeypatch.chdir(work)
    refused(capsys, argv, field, work)


def test_a_lock_file_that_is_a_folder_is_named(work, capsys):
    (work / "r3" / ".mam-bench.lock").mkdir(parents=True)
    err = refused(capsys, [*RUN, "--out", str(work / "r3")], "out", work)
    assert ".mam-bench.lock" in err


def test_another_suite_is_not_blamed_on_changed_data(work, capsys):
    other = {"name": "o", "seeds": 1, "cases": [{"world": "voter", "rounds": 2}]}
    (work / "other.yaml").write_text(yaml.safe_dump(other))
    err = refused(capsys, ["experiment", str(work / "other.yaml"), "--out", str(work / "E")], "resume", work)
    assert "suite differs" in err and "world data files changed" not in err


def test_a_numba_compile_is_announced_once(capsys):
    """A cache miss compiles (tens of seconds for the landscape kernel): said once, on stderr."""
    from numba import njit

    from mam_bench.commands.landscape import announce_compiling

    announce_compiling()

    @njit(cache=False)
    def twice(x):
        return 2 * x

    @njit(cache=False)
    def thrice(x):
        return 3 * x

    assert twice(2) == 4 and thrice(2) == 6  # two compiles
    err = capsys.readouterr().err
    assert err.count("compiling the landscape kernel") == 1


@pytest.mark.parametrize("name", ["treatment.jsonl", "decisions.jsonl"])
def test_a_killed_run_whose_last_line_was_cut_resumes(work, capsys, name):
    """A kill mid-write leaves a last line without its newline: expected, not damage."""
    (work / "R" / "result.json").unlink()
    path = work / "R" / name
    path.write_text(path.read_text()[:-9])
    code, err = cli_in_process(capsys, "run", "--resume", str(work / "R"))
    assert code == 0, err
    assert (work / "R" / "result.json").is_file()
