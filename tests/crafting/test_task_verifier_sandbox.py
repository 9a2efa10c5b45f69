"""A task's verifier is untrusted code: an endless loop at import, a sleep, an exit or a raise in
verify() ends `tasks --check` and `run` within the task's limit with `error: task: verifier ...`
(exit 2), never a hang or a silent exit 0. The run records the task's files by content, a resume
refuses a changed task, and `report` of an experiment never runs the task's code."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.crafting.test_task_files import CRITERIA, TASK, run, write_task
from tests.support.cli import REPO, cli_in_process

#: the limit the hostile verifiers get (the task file says it)
LIMIT = "verifier_seconds: 1\n"

HOSTILE = {
    "loops at import": ("while True:\n    pass\n", "gave no answer within 1 s (import)"),
    "sleeps in verify": (
        "import time\ndef verify(trajectory):\n    time.sleep(3600)\n",
        "gave no answer within 1 s (verify())",
    ),
    "exits in verify": ("import sys\ndef verify(trajectory):\n    sys.exit(0)\n", "called sys.exit(0) in verify()"),
    "raises in verify": ("def verify(trajectory):\n    raise RuntimeError('boom')\n", "RuntimeError: boom"),
    "kills itself": (
        "import os\ndef verify(trajectory):\n    os._exit(0)\n",
        "ended during verify() without an answer",
    ),
    "returns a tuple": ("def verify(trajectory):\n    return (1, 'ok')\n", "returned list, not a bool"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_verifier_is_a_named_error_for_check_and_run(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    criteria, expected = HOSTILE[case]
    task = write_task(tmp_path / "task", TASK + LIMIT, criteria)
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    assert code == 2 and err.startswith("error: task: verifier ") and expected in err, err
    code, err = run(capsys, task, tmp_path / "run")
    assert code == 2 and "error: task: verifier " in err and expected in err, err
    assert not (tmp_path / "run" / "result.json").exists()


def test_the_verifier_output_is_captured_and_quoted(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    criteria = "print('looking at the staff')\ndef verify(trajectory):\n    raise ValueError('no staff')\n"
    task = write_task(tmp_path / "task", TASK + LIMIT, criteria)
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    out = capsys.readouterr().out
    assert code == 2 and "looking at the staff" in err and "looking at the staff" not in out, err


def test_check_of_a_looping_verifier_returns_within_the_limit(tmp_path: Path) -> None:
    """The real command in its own process: it ends, and it leaves no verifier process behind."""
    task = write_task(tmp_path / "task", TASK + LIMIT, "while True:\n    pass\n")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "mam_bench", "tasks", "crafting", "--check", str(task)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "gave no answer within 1 s" in done.stderr, done.stderr
    assert time.monotonic() - started < 120
    left = subprocess.run(["pgrep", "-f", f"mam_bench.user_code {tmp_path}"], capture_output=True, text=True)
    assert left.stdout.strip() == ""


def test_the_run_records_the_task_files_and_a_resume_refuses_a_changed_one(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    task = write_task(tmp_path / "task")
    code, err = run(capsys, task, tmp_path / "run")
    assert code == 0, err
    spec = json.loads((tmp_path / "run" / "spec.json").read_text())
    verifier = task.parent / "plank_rush_criteria.py"
    assert sorted(spec["inputs"]) == sorted([str(task.resolve()), str(verifier.resolve())])
    (tmp_path / "run" / "result.json").unlink()  # as if killed before the end
    verifier.write_text(CRITERIA.format(need=1))
    code, err = cli_in_process(capsys, "run", "--resume", str(tmp_path / "run"))
    assert code == 2 and "error: resume: " in err and "plank_rush_criteria.py changed" in err, err
    verifier.write_text(CRITERIA.format(need=3))  # back as it was: the resume goes on
    code, err = cli_in_process(capsys, "run", "--resume", str(tmp_path / "run"))
    assert code == 0, err


def test_report_of_an_experiment_never_runs_the_task_code(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    task = write_task(tmp_path / "task")
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "name: mine\nseeds: 1\ncases:\n"
        f"  - {{world: crafting, controller: rule, influence: 1, params: {{task: {task}, rounds: 3}}}}\n"
    )
    code, err = cli_in_process(capsys, "experiment", str(suite), "--out", str(tmp_path / "e"), "--jobs", "1")
    assert code == 0, err
    marker = tmp_path / "ran"
    (task.parent / "plank_rush_criteria.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n" + CRITERIA.format(need=3)
    )  # a report that imported it would leave the marker
    code, err = cli_in_process(capsys, "report", str(tmp_path / "e"), "--out", str(tmp_path / "r.html"))
    assert code == 0, err
    code, err = cli_in_process(capsys, "report", str(tmp_path / "e"), "--agentworld")
    assert code == 0, err
    assert not marker.exists()
