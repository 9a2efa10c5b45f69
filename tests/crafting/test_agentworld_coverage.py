"""The coverage command that publishes AgentWorld's table: a task that loads is played to its end
with its verifier answering every round, a refused one names what it needs, and the counts add
up. The task files are the ones written for these tests in AgentWorld's layout."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "research" / "crafting" / "agentworld_coverage.py"
DATA = Path(__file__).parent / "data" / "agentworld"


def test_the_table_counts_loaded_run_completed_and_refused(tmp_path: Path) -> None:
    for name in ("task_01_staff_run.yaml", "task_01_success_criteria.py"):
        shutil.copy(DATA / name, tmp_path / name)
    refused = (
        (DATA / "task_02_corn_rows.yaml")
        .read_text()
        .replace(
            'agent_1: {username: "a", skill_levels: {foraging: 20}}',
            'agent_1: {username: "a", skill_levels: {foraging: 20}, inventory_items: [{item: moonrock}]}',
        )
    )
    (tmp_path / "task_02_corn_rows.yaml").write_text(refused)
    shutil.copy(DATA / "task_02_success_criteria.py", tmp_path / "task_02_success_criteria.py")
    out = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, timeout=300, check=True
    ).stdout
    assert "| task_01_staff_run | crafting | yes | yes | yes | yes | staff held: True |" in out
    assert "| task_02_corn_rows | - | no | no | - | no | needs item 'moonrock', which this world does not have |" in out
    assert "| all | 2 | 1 | 1 | 1 |" in out
    assert "| item 'moonrock' | 1 |" in out
