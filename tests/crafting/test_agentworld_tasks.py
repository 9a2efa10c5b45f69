"""AgentWorld's task layout loads as a crafting task, its success-criteria file runs unchanged with
our verifier_utils (or the copy beside the task) on the AgentWorld-shaped trajectory we record,
and what this world cannot play is refused naming the mechanic. The task files here are written
for these tests in AgentWorld's layout; none is one of AgentWorld's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mam_bench.models.crafting.agentworld import verifier_utils as vu
from mam_bench.models.crafting.model import CraftingWorld
from tests.support.cli import cli_in_process

DATA = Path(__file__).parent / "data" / "agentworld"
STAFF = "task_01_staff_run.yaml"


def copy_task(tmp: Path, *names: str) -> Path:
    for name in names:
        shutil.copy(DATA / name, tmp / name)
    return tmp / names[0]


def staff_task(tmp: Path) -> Path:
    return copy_task(tmp, STAFF, "task_01_success_criteria.py")


def play(task: Path, seed: int = 0) -> CraftingWorld:
    world = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(task)}), seed=seed)
    while world.round < world.budget and world.run.status.value == "running":
        world.step()
    return world


def test_check_reads_the_layout_and_names_what_is_not_carried_over(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    from mam_bench.cli import main

    assert main(["tasks", "crafting", "--check", str(staff_task(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "AgentWorld task, 3 agents, 30 rounds, targets 1 staff, verifier task_01_success_criteria.py" in out, out
    assert "agent_1: skill health" in out and "agent_1: worn leatherboots" in out and "agent_3: skill magic" in out


def test_agents_keep_their_usernames_skills_and_kit(tmp_path: Path) -> None:
    from mam_bench.models.crafting.task_files import load_task_file

    task = load_task_file(str(staff_task(tmp_path)))
    assert [task.username(i) for i in range(3)] == ["cutter_agent", "whittler_agent", "mage_agent"]
    assert [a.role for a in task.agents] == ["lumberjack", "woodworker", "crafter"]
    assert task.agents[0].equipment == ["axe"] and task.agents[2].inventory == {"bead": 1}
    assert task.agents[1].skills == {"fletching": 15, "strength": 20}
    assert task.budget == 30 and task.targets[0].to == 2  # the criteria line names the mage


def test_the_rule_team_finishes_and_their_verifier_says_so(tmp_path: Path) -> None:
    world = play(staff_task(tmp_path))
    score, reason = world.verify()
    held = world.actors[2].inventory().get("staff", 0) > 0
    assert (score, reason) == ((1, "staff held: True") if held else (0, "staff held: False"))
    assert score == 1, reason


def test_the_verdict_follows_the_trajectory_not_the_checkpoints(tmp_path: Path) -> None:
    """A criteria file that wants two staffs says 0 where the checkpoints (one staff) say done."""
    task = staff_task(tmp_path)
    (tmp_path / "task_01_success_criteria.py").write_text(
        "from verifier_utils import get_final_inventories, count_item_in_inventories\n"
        "def verify(traj):\n"
        "    n = count_item_in_inventories(get_final_inventories(traj), 'staff')\n"
        "    return (1 if n >= 2 else 0, f'staffs {n}/2')\n"
    )
    world = play(task)
    assert world.verify() == (0, "staffs 1/2")


def test_a_verifier_utils_beside_the_task_is_used_instead_of_ours(tmp_path: Path) -> None:
    task = staff_task(tmp_path)
    (tmp_path / "verifier_utils.py").write_text(
        "def get_final_inventories(traj):\n    return {}\n"
        "def has_item_in_any_inventory(inv, key, min_count=1):\n    return False\n"
    )
    assert play(task).verify() == (0, "staff held: False")


def test_the_trajectory_has_agentworlds_shape_and_names(tmp_path: Path) -> None:
    from mam_bench.models.crafting.agentworld.trajectory import trajectory

    world = play(staff_task(tmp_path))
    traj = trajectory(world)
    assert traj["task_definition"]["agent_3"]["username"] == "mage_agent"
    assert [r["round"] for r in traj["rounds"]] == list(range(1, world.round + 1))
    inv = vu.get_final_inventories(traj)
    assert set(inv) == {"agent_1", "agent_2", "agent_3"}  # as there: the task file's keys, mapped to usernames
    assert vu.get_agent_items_by_username(traj)["mage_agent"].get("staff") == 1
    assert vu.check_crafted_items(traj, ["staff"]) == {"staff": 1}
    assert vu.check_agents_alive(traj) and vu.count_chat_messages(traj) == len(world.chats)


def test_result_json_records_their_verdict(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    task = staff_task(tmp_path)
    code, err = cli_in_process(
        capsys, "run", "crafting", "--param", f"task={task}", "--param", "influence=1", "--policy", "rule",
        "--out", str(tmp_path / "run"),
    )  # fmt: skip
    assert code == 0, err
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert result["reference"]["final"]["sr"] == 1.0
    assert result["judged"]["reference"]["agentworld_verifier"] == {"score": 1, "reason": "staff held: True"}


def corn_task(tmp: Path, agent_1: str | None = None) -> Path:
    task = copy_task(tmp, "task_02_corn_rows.yaml", "task_02_success_criteria.py")
    if agent_1 is not None:
        text = task.read_text().replace('agent_1: {username: "a", skill_levels: {foraging: 20}}', agent_1)
        task.write_text(text)
    return task


def test_an_item_of_an_agents_kit_this_world_lacks_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    kit = 'agent_1: {username: "a", skill_levels: {foraging: 20}, inventory_items: [{item: moonrock, count: 1}]}'
    task = corn_task(tmp_path, kit)
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    assert code == 2 and err.strip() == f"error: task: {task}: needs item 'moonrock', which this world does not have"


def test_what_the_verifier_reads_and_this_world_has_not_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """A kill of a mob this world has no kind of counts 0 here: the file loads and --check says so."""
    from mam_bench.cli import main

    task = staff_task(tmp_path)
    (tmp_path / "task_01_success_criteria.py").write_text(
        "from verifier_utils import count_combat_kills\n"
        "def verify(traj):\n    return (1 if count_combat_kills(traj, ['dragon', 'wolf']) else 0, 'x')\n"
    )
    assert main(["tasks", "crafting", "--check", str(task)]) == 0
    first = capsys.readouterr().out.splitlines()[0]  # then what contains the verifier here
    assert first.endswith("; the verifier reads what this world has not: mob dragon")


def test_agentworlds_own_items_grow_at_their_nodes_and_the_verifier_counts_them(tmp_path: Path) -> None:
    """corn is AgentWorld's (data/agentworld.yaml), harvested at its node; the rule team gathers it
    for b, whose key the criteria file reads through the usernames."""
    world = play(corn_task(tmp_path))
    corn = world.actors[1].inventory().get("corn", 0)
    assert world.cat.nodes["corn1"].resource == "corn" and corn > 0
    assert world.verify() == ((1 if corn >= 8 else 0), f"corn {corn}/8")


HOSTILE = {
    "exits": ("import sys\ndef verify(traj):\n    sys.exit(0)\n", "called sys.exit(0) in verify()"),
    "raises": ("def verify(traj):\n    raise KeyError('rounds')\n", "KeyError"),
    "returns a bool": ("def verify(traj):\n    return True\n", "returned True, not (0 or 1, reason)"),
    "returns a score of 2": ("def verify(traj):\n    return (2, 'x')\n", "returned [2, 'x'], not (0 or 1, reason)"),
    "loops": ("def verify(traj):\n    while True:\n        pass\n", "gave no answer within"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_criteria_file_is_a_named_error(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    criteria, expected = HOSTILE[case]
    task = staff_task(tmp_path)
    text = task.read_text().replace("max_action_steps: 30", "max_action_steps: 30\nverifier_seconds: 1")
    task.write_text(text)
    (tmp_path / "task_01_success_criteria.py").write_text(criteria)
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    assert code == 2 and err.startswith("error: task: verifier ") and expected in err, err
    assert str(tmp_path / "task_01_success_criteria.py") in err


def test_every_missing_name_is_listed_at_once(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    kit = 'agent_1: {username: "a", skill_levels: {alchemy: 5}, equipped_items: [{item: moonrock}, {item: dragonhide}]}'
    task = corn_task(tmp_path, kit)
    code, err = cli_in_process(capsys, "tasks", "crafting", "--check", str(task))
    assert code == 2 and err.endswith(
        "needs skill 'alchemy', item 'moonrock', item 'dragonhide', which this world does not have"
    ), err


def test_check_says_what_no_agent_can_make(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Without the whittler's fletching nobody makes sticks here, so the staff is out of reach."""
    from mam_bench.cli import main

    task = staff_task(tmp_path)
    task.write_text(task.read_text().replace("fletching: 15", "mining: 15"))
    assert main(["tasks", "crafting", "--check", str(task)]) == 0
    assert "no agent can make or holds: staff <- stick" in capsys.readouterr().out
    world = play(task)
    assert world.verify() == (0, "staff held: False")


def test_an_agent_makes_what_its_levels_allow() -> None:
    from mam_bench.models.crafting.agentworld.tasks import can_make

    made = can_make({"smithing": 12, "lumberjacking": 5}, "smith")
    assert {"iron_bar", "axe", "logs"} <= set(made) and "heavysword" not in made  # heavysword needs level 20


def test_the_verifier_reads_agents_by_their_keys_and_only_played_rounds(tmp_path: Path) -> None:
    """Upstream's trajectories name an agent by its key (task 44 reads `inventories['agent_3']`), and
    its verifiers read played trajectories: before the first round there is nothing to ask."""
    task = staff_task(tmp_path)
    (tmp_path / "task_01_success_criteria.py").write_text(
        "from verifier_utils import get_final_inventories, count_item_in_inventories\n"
        "def verify(traj):\n"
        "    n = count_item_in_inventories({'agent_3': get_final_inventories(traj)['agent_3']}, 'staff')\n"
        "    return (1 if n else 0, f'mage staffs {n}')\n"
    )
    world = CraftingWorld(CraftingWorld.Params.from_strings({"task": str(task)}), seed=0)
    assert world.verify() == (0, "no round played yet")
    while world.round < world.budget and world.run.status.value == "running":
        world.step()
    assert world.verify() == (1, "mage staffs 1")


def test_the_agentworld_layer_is_only_in_agentworld_worlds(tmp_path: Path) -> None:
    """AgentWorld's rows (its axe takes 3 iron bars and a log) never reach the built-in tasks."""
    from mam_bench.models.crafting.catalog import catalog

    ours, theirs = catalog(), catalog("agentworld")
    assert ours.recipes["axe"].inputs == {"iron_bar": 1, "stick": 1} and "corn" not in ours.items
    assert theirs.recipes["axe"].inputs == {"iron_bar": 3, "logs": 1} and theirs.items["corn"] == "raw"
    assert CraftingWorld(CraftingWorld.Params(), seed=0).cat is ours
    assert play(staff_task(tmp_path)).cat is theirs
