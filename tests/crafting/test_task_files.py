"""A user's own task file, with its verifier beside it, runs through `mam-bench run crafting
--param task=FILE`; a malformed one is `error: task: ...`, exit 2, before anything is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.crafting import user_task
from tests.crafting.user_task import task_text
from tests.support.cli import cli_in_process

TASK = task_text(
    "plank_rush",
    item="plank",
    qty=3,
    holders="crafter",
    category="crafting",
    description="Two lumberjacks and two crafters turn logs into planks.",
    objective="Make 3 planks and keep them with the crafters.",
)
#: the user's success criteria: planks held by the crafters, read from the trajectory
CRITERIA = """\
def verify(trajectory):
    inventories = trajectory["final_state"]["inventories"]
    return sum(inventories[i].get("plank", 0) for i in (2, 3)) >= {need}
"""


def write_task(folder: Path, task: str = TASK, criteria: str | None = CRITERIA.format(need=3)) -> Path:
    return user_task.write_task(folder, "plank_rush", task, criteria)


def run(capsys: Any, task: Path, out: Path) -> tuple[int, str]:
    return cli_in_process(
        capsys, "run", "crafting", "--param", f"task={task}", "--param", "influence=1", "--policy", "rule",
        "--out", str(out),
    )  # fmt: skip


def test_a_users_task_with_its_verifier_runs(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    task = write_task(tmp_path / "mine")
    code, err = run(capsys, task, tmp_path / "run")
    assert code == 0, err
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert result["params"]["task"] == str(task.resolve())
    assert result["reference"]["final"]["sr"] == 1.0
    assert result["reference"]["status"] == "success"


def test_the_verifier_decides_success_not_the_checkpoints(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The checkpoints are met (PSR 1) but the user's criteria ask for more: no success."""
    task = write_task(tmp_path / "strict", criteria=CRITERIA.format(need=99))
    code, err = run(capsys, task, tmp_path / "run")
    assert code == 0, err
    final = json.loads((tmp_path / "run" / "result.json").read_text())["reference"]["final"]
    assert final["psr"] == 1.0
    assert final["sr"] == 0.0


BAD = {
    "not yaml": (TASK + "agents: [: :\n", None, "not readable YAML"),
    "not a mapping": ("- just\n- a list\n", None, "expected a mapping"),
    "unknown key": (TASK + "rewards: 3\n", None, "rewards: unknown key"),
    "missing field": (TASK.replace("budget: 20\n", ""), None, "budget: Field required"),
    "unknown role": (TASK.replace("role: crafter", "role: wizard", 1), None, "unknown role 'wizard'"),
    "unknown site": (TASK.replace("spawn: town", "spawn: moon", 1), None, "unknown spawn site 'moon'"),
    "unknown item": (TASK.replace("{item: plank, qty: 3, to", "{item: unobtainium, qty: 3, to"), None, "unobtainium"),
    "scope of nobody": (TASK.replace('scope: "role:crafter"', 'scope: "role:smith"'), None, "names no agent"),
    "built-in name": (TASK.replace("name: plank_rush", "name: forge_vanguard"), None, "built-in task"),
    "no verifier file": (TASK, "", "no such file"),
    "no verify function": (TASK, "def check(t):\n    return True\n", "defines no verify"),
    "verifier does not import": (TASK, "import no_such_module_here\n", "does not import"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_malformed_task_file_is_a_named_error_and_writes_nothing(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    text, criteria, expected = BAD[case]
    folder = tmp_path / "bad"
    task = write_task(folder, text, CRITERIA.format(need=3) if criteria is None else (criteria or None))
    if criteria == "":
        (folder / "plank_rush_criteria.py").unlink(missing_ok=True)
    code, err = run(capsys, task, tmp_path / "run")
    assert code == 2
    assert err.startswith("error: task: "), err
    assert expected in err, err
    assert not (tmp_path / "run").exists()
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    assert (code, err.startswith("error: task: ")) == (2, True), err


def test_a_missing_task_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code, err = run(capsys, tmp_path / "nowhere.yaml", tmp_path / "run")
    assert code == 2 and "error: task: " in err and "no such task file" in err, err


def test_check_prints_what_the_file_holds(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from mam_bench.cli import main

    task = write_task(tmp_path / "ok")
    assert main(["tasks", "crafting", "--check", str(task)]) == 0
    out = capsys.readouterr().out
    assert "plank_rush: ok" in out and "4 agents" in out and "verifier plank_rush_criteria.py" in out


def test_a_verifier_that_raises_stops_the_run_with_its_file_named(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    task = write_task(tmp_path / "raises", criteria="def verify(trajectory):\n    return 1 / 0\n")
    code, err = run(capsys, task, tmp_path / "run")
    assert code == 2
    assert "error: task: verifier" in err and "ZeroDivisionError" in err, err
