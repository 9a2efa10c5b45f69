"""A user's task file for the tests: two lumberjacks in the forest, two crafters in town, one
target held by one role, and the verifier file beside it."""

from __future__ import annotations

from pathlib import Path


def task_text(name: str, *, item: str, qty: int, holders: str, category: str, description: str, objective: str) -> str:
    return f"""\
name: {name}
category: {category}
description: {description}
objective: {objective}
budget: 20
verifier: {name}_criteria.py
agents:
  - {{role: lumberjack, spawn: forest, equipment: [axe]}}
  - {{role: lumberjack, spawn: forest, equipment: [axe]}}
  - {{role: crafter, spawn: town}}
  - {{role: crafter, spawn: town}}
targets:
  - {{item: {item}, qty: {qty}, to: "role:{holders}"}}
checkpoints:
  - {{name: {item} held, kind: held, item: {item}, qty: {qty}, scope: "role:{holders}"}}
"""


def write_task(folder: Path, name: str, task: str, criteria: str | None) -> Path:
    """The task file and (unless None) its verifier, as `--param task=FILE` reads them."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(task)
    if criteria is not None:
        (folder / f"{name}_criteria.py").write_text(criteria)
    return folder / f"{name}.yaml"
