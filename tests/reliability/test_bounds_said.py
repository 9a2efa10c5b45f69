"""Bounds and the cases that used to pass silently: the planner's options have upper bounds and
strict types, a flag given twice or one nothing reads is refused, an unreachable Ray address is
`error: address: ...` before any folder, a benchmark is never nested in another's folder, task
files are checked (budget, keys given twice, negative quantities, deep nesting, escape
sequences), a cut-short table.csv is named, and the memory check sees a cgroup's limit."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from mam_bench.errors import ConfigError
from mam_bench.experiment.table import COLUMNS, read_checked_table
from mam_bench.limits import cgroup_memory_left
from tests.crafting.test_task_files import CRITERIA, TASK, write_task
from tests.support.cli import cli_in_process

ORACLE = ["run", "pursuit", "--rounds", "2", "--policy", "oracle"]


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--candidates", "1000000000"], "candidates"),
        (["--sweeps", "1000"], "sweeps"),
        (["--rollouts", "1000000000"], "rollouts"),
        (["--lookahead", "1000000000"], "lookahead"),
        (["--budget", "1e9"], "budget"),
        (["--option", "candidates=true"], "candidates"),
        (["--option", "candidates=1000000000"], "candidates"),
        (["--candidates", "2", "--option", "candidates=3"], "option"),
        (["--executor", "local"], "executor"),
    ],
)
def test_planner_options_are_bounded_and_never_guessed(
    flags: list[str], field: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    code, err = cli_in_process(capsys, *ORACLE, *flags, "--out", str(tmp_path / "o"))
    assert code == 2 and err.startswith(f"error: {field}: "), err
    assert not (tmp_path / "o").exists()


def test_a_conflict_names_both_spellings(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code, err = cli_in_process(
        capsys, *ORACLE, "--candidates", "2", "--option", "candidates=3", "--out", str(tmp_path / "o")
    )
    assert code == 2 and "--candidates 2" in err and "--option candidates" in err, err


STEER = ["steerability", "all", "--seeds", "500-501"]


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--controllers", ""], "controllers"),
        (["--controllers", " , "], "controllers"),
        (["--controllers", "stay", "--oracle-option", "candidates=2"], "oracle_option"),
    ],
)
def test_steerability_refuses_what_it_would_ignore(
    flags: list[str], field: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    code, err = cli_in_process(capsys, *STEER, *flags, "--out", str(tmp_path / "st"))
    assert code == 2 and err.startswith(f"error: {field}: "), err
    assert not (tmp_path / "st").exists()


def test_an_unreachable_ray_address_is_refused_before_any_folder(tmp_path: Path, capsys) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text("name: s\nseeds: 1\ncases:\n  - {world: schelling, params: {size: 10}, rounds: 2}\n")
    out = tmp_path / "e"
    code, err = cli_in_process(
        capsys, "experiment", str(suite), "--out", str(out), "--executor", "ray", "--address", "127.0.0.1:1"
    )
    assert code == 2 and err.startswith("error: address: cannot reach a Ray cluster at 127.0.0.1:1"), err
    assert not out.exists()
    code, err = cli_in_process(
        capsys, "experiment", str(suite), "--out", str(out), "--executor", "ray", "--address", "x"
    )
    assert code == 2 and err.startswith("error: address: expected HOST:PORT"), err


def test_a_benchmark_is_not_nested_in_another(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "B" / "pairs").mkdir(parents=True)
    (tmp_path / "B" / "benchmark.json").write_text("{}")
    for out in (tmp_path / "B" / "pairs", tmp_path / "B" / "pairs" / "x"):
        code, err = cli_in_process(capsys, "benchmark", "--policy", "stay", "--out", str(out))
        assert code == 2 and err.startswith("error: out: ") and "inside the benchmark folder" in err, err
    assert sorted(p.name for p in (tmp_path / "B").rglob("*")) == ["benchmark.json", "pairs"]


TASK_FILES = {
    "budget 1e9": (TASK.replace("budget: 20", "budget: 1000000000"), "budget: 1000000000 rounds, more than"),
    "budget twice": (TASK.replace("budget: 20", "budget: 20\nbudget: 30"), "key 'budget' is given twice"),
    "negative qty": (TASK.replace("qty: 3, to:", "qty: -1, to:"), "target plank: a quantity below 0"),
    "5000-deep list": (TASK + "survey: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    "ANSI name": (TASK.replace("name: plank_rush", 'name: "plank\\e[31mrush"'), "name: holds a control character"),
}


@pytest.mark.parametrize("case", sorted(TASK_FILES))
def test_a_task_file_is_checked(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    text, said = TASK_FILES[case]
    assert text != TASK
    task = write_task(tmp_path / "t", text, CRITERIA.format(need=3))
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    assert code == 2 and err.startswith("error: task: ") and said in err, err
    assert "\x1b" not in err and "Traceback" not in err


def test_a_cut_short_table_is_named(tmp_path: Path) -> None:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(COLUMNS)
    writer.writerow(["1"] * len(COLUMNS))
    writer.writerow(["1"] * (len(COLUMNS) // 2))
    (tmp_path / "table.csv").write_text(text.getvalue())
    with pytest.raises(ConfigError) as caught:
        read_checked_table(tmp_path / "table.csv")
    assert "row 3 has" in caught.value.message, caught.value.message


def test_the_memory_check_reads_a_cgroup_limit(tmp_path: Path) -> None:
    for version, (limit, usage) in {"v2": ("memory.max", "memory.current"), "v1": ("lim", "use")}.items():
        root = tmp_path / version
        (root / "job" / "step").mkdir(parents=True)
        (root / "job" / limit).write_text(str(512 << 20) + "\n")
        (root / "job" / usage).write_text(str(100 << 20) + "\n")
        (root / "job" / "step" / limit).write_text("max\n")
        (root / "job" / "step" / usage).write_text("5\n")
        proc = tmp_path / f"{version}.cgroup"
        controllers = "" if version == "v2" else "memory"
        proc.write_text(f"0:{controllers}:/job/step\n")
        left = cgroup_memory_left(proc, {controllers: (str(root), limit, usage)})
        assert left == (512 - 100) << 20
    (tmp_path / "none.cgroup").write_text("0::/\n")
    assert cgroup_memory_left(tmp_path / "none.cgroup", {"": (str(tmp_path / "empty"), "a", "b")}) is None


def test_the_planner_reads_numbers_given_as_text_but_never_a_bool() -> None:
    from pydantic import ValidationError

    from mam_bench.steering.oracle import OracleOptions

    assert OracleOptions(candidates="3", budget="1.5").candidates == 3  # --option values arrive as text
    for bad in ({"candidates": True}, {"budget": False}, {"candidates": 65}, {"sweeps": 21}):
        with pytest.raises(ValidationError):
            OracleOptions(**bad)
