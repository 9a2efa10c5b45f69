"""`episode_end=upstream`: AgentWorld's runner's episode (its budget: rounds given, else the task's
`rounds`, else 55; its verifier asked after rounds 6, 9, 12, ...), as a stopping rule; its refusal of
two communication baselines together; and `tasks --check`'s note on criteria that check less than
the goal."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.models.crafting import episode
from mam_bench.models.crafting.model import CraftingWorld
from tests.crafting.user_task import task_text, write_task
from tests.support.cli import cli_in_process

DATA = Path(__file__).parent / "data" / "agentworld"
TASK = task_text(
    "log_pile",
    item="logs",
    qty=5,
    holders="lumberjack",
    category="gathering",
    description="Two lumberjacks cut logs while two crafters wait in town.",
    objective="Hold 5 logs between the lumberjacks.",
)
#: passes once the lumberjacks hold 5 logs: the rule team gets there in its 4th round
CRITERIA = """\
def verify(trajectory):
    inventories = trajectory["final_state"]["inventories"]
    return inventories[0].get("logs", 0) + inventories[1].get("logs", 0) >= 5
"""


def log_pile(folder: Path) -> Path:
    return write_task(folder, "log_pile", TASK, CRITERIA)


def reference(capsys: pytest.CaptureFixture, task: Path, out: Path, *params: str) -> dict:
    code, err = cli_in_process(
        capsys, "run", "crafting", "--param", f"task={task}", "--param", "influence=1", "--policy", "rule",
        *[x for p in params for x in ("--param", p)], "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    return json.loads((out / "result.json").read_text())["reference"]


def test_upstreams_verifier_cadence_ends_a_task_that_succeeds_by_round_9(tmp_path, capsys):
    task = log_pile(tmp_path)
    ours = reference(capsys, task, tmp_path / "ours", "episode_end=verifier")
    assert (ours["status"], ours["rounds"]) == ("success", 4)  # ours: the first round it passes
    upstream = reference(capsys, task, tmp_path / "upstream", "episode_end=upstream")
    # upstream asks after rounds 6, 9, ...: the first of them at or after the pass
    assert (upstream["status"], upstream["rounds"]) == ("success", 6)
    assert upstream["final"]["sr"] == 1.0


def test_a_budget_that_ends_between_two_checks_never_asks(tmp_path, capsys):
    """5 rounds: the verifier would pass from round 4, but upstream first asks after round 6."""
    got = reference(capsys, log_pile(tmp_path), tmp_path / "r", "episode_end=upstream", "rounds=5")
    assert (got["status"], got["rounds"]) == ("horizon_exhausted", 5)


def test_the_checks_fall_on_every_third_round_from_the_sixth():
    assert [r for r in range(1, 20) if episode.checks_at(r)] == [6, 9, 12, 15, 18]


def agentworld_task(tmp: Path, extra: str = "") -> Path:
    shutil.copy(DATA / "task_02_success_criteria.py", tmp / "task_02_success_criteria.py")
    (tmp / "task_02_corn_rows.yaml").write_text((DATA / "task_02_corn_rows.yaml").read_text() + extra)
    return tmp / "task_02_corn_rows.yaml"


def budget(task: Path, **params: str) -> int:
    return CraftingWorld(CraftingWorld.Params.from_strings({"task": str(task), **params}), seed=0).horizon()


def test_upstreams_budget_is_the_rounds_given_else_the_tasks_rounds_else_55(tmp_path):
    plain = agentworld_task(tmp_path)
    assert budget(plain) == 10  # ours, by default: max_action_steps
    assert budget(plain, episode_end="upstream") == 55
    assert budget(plain, episode_end="upstream", rounds="7") == 7
    (tmp_path / "with_rounds").mkdir()
    assert budget(agentworld_task(tmp_path / "with_rounds", "rounds: 12\n"), episode_end="upstream") == 12


def test_two_communication_baselines_together_are_refused_as_upstream_refuses_them(tmp_path, capsys):
    code, err = cli_in_process(
        capsys,
        "run",
        "crafting",
        "--param",
        "condition=no_communication,shared_plan_only",
        "--out",
        str(tmp_path / "r"),
    )
    assert code == 2
    assert err.startswith("error: param.condition: ") and "mutually exclusive" in err, err
    assert not (tmp_path / "r").exists()


def test_check_notes_criteria_that_check_less_than_the_goal(tmp_path, capsys):
    """AgentWorld's task_28 asks only that everyone is alive: its criteria name no item."""
    task = agentworld_task(tmp_path)
    (tmp_path / "task_02_success_criteria.py").write_text('def verify(traj):\n    return (1, "everyone alive")\n')
    assert main(["tasks", "crafting", "--check", str(task)]) == 0
    out = capsys.readouterr().out
    assert "note: its success criteria (task_02_success_criteria.py) name no item and no mob, so they check " in out
    assert "'Gather 8x corn'" in out
    # a task whose criteria name its item gets no note
    (tmp_path / "b").mkdir()
    assert main(["tasks", "crafting", "--check", str(agentworld_task(tmp_path / "b"))]) == 0
    assert "note:" not in capsys.readouterr().out
