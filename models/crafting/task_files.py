"""A user's own task: a YAML file in the shape of data/tasks/*.yaml, with an optional Python
verifier beside it, as AgentWorld pairs each task with its success criteria.

`--param task=path/to/task.yaml` loads one; `mam-bench tasks crafting --check FILE` validates it.
Every problem is a ConfigError on the field `task` that names the file and what is wrong in it.
The verifier file (the task's `verifier:`, relative to the YAML) defines
`verify(trajectory) -> bool`; the trajectory is a dict with `task`, `round`, `final_state` (what
the checkpoints read) and `actions` (every action of every agent, in order). The verifier is
untrusted code: it runs in a child process (mam_bench.user_code) within `verifier_seconds`.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from mam_bench.errors import ConfigError
from mam_bench.models.crafting.agentworld.tasks import from_agentworld, is_agentworld, unreachable
from mam_bench.models.crafting.tasks import Task, builtin_tasks
from mam_bench.user_code import UserCode

#: the child-side runner of AgentWorld's criteria files (beside our verifier_utils)
CRITERIA_RUNNER = Path(__file__).parent / "agentworld" / "criteria.py"
#: a task file's size bound: a task is a page of YAML, not a data set
MAX_BYTES = 256_000

_loaded: dict[str, Task] = {}
#: (process, verifier path, its content hash) -> its running child
_verifiers: dict[tuple[int, str, str], UserCode] = {}
#: task name -> the task file and its verifier
_files: dict[str, tuple[str, ...]] = {}


#: a task's budget, at most (the rounds a run may play)
MAX_BUDGET = 100_000
#: characters a task's text may not hold (C0 and C1 controls, DEL) beyond newline and tab
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class _OnceLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (YAML would keep the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, (str, int, float, bool)):
                continue
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"key {key!r} is given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _control_characters(data: Any) -> str | None:
    """The key path of the first text in `data` holding a control character, else None."""
    todo: list[tuple[str, Any]] = [("", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, str) and _CONTROL.search(value):
            return where or "value"
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and _CONTROL.search(key):
                    return f"{where}.key" if where else "key"
                todo.append((f"{where}.{key}" if where else str(key), item))
        elif isinstance(value, list):
            todo += [(f"{where}[{i}]", item) for i, item in enumerate(value)]
    return None


def looks_like_file(value: str) -> bool:
    return value.endswith((".yaml", ".yml")) or "/" in value


def load_task_file(value: str) -> Task:
    """The task in `value` (a path), validated; the same file loads once per process."""
    path = Path(value).expanduser()
    if not path.is_file():
        raise ConfigError("task", f"{value}: no such task file")
    raw = path.read_bytes()
    if len(raw) > MAX_BYTES:
        raise ConfigError("task", f"{path}: {len(raw)} bytes, more than a task file may hold ({MAX_BYTES})")
    key = f"{path.resolve()}:{hashlib.sha256(raw).hexdigest()}"
    if key in _loaded:
        return _loaded[key]
    try:
        data = yaml.load(raw.decode("utf-8"), Loader=_OnceLoader)  # noqa: S506 - a SafeLoader
    except RecursionError:
        raise ConfigError("task", f"{path}: nested too deeply to be a task") from None
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ConfigError("task", f"{path}: not readable YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict):
        raise ConfigError("task", f"{path}: expected a mapping of task fields, got {type(data).__name__}")
    where = _control_characters(data)
    if where is not None:  # an ANSI escape in a name would reach the terminal raw
        raise ConfigError("task", f"{path}: {where}: holds a control character (an escape sequence?)")
    if is_agentworld(data):
        data = from_agentworld(path, data)
    verifier = data.get("verifier")
    if verifier is not None:
        if not isinstance(verifier, str) or not verifier.endswith(".py"):
            raise ConfigError("task", f"{path}: verifier: expected the name of a .py file beside the task")
        data = {**data, "verifier": str((path.parent / verifier).resolve())}
    try:
        task = Task.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ())) or "task"
        msg = "unknown key" if err.get("type") == "extra_forbidden" else err.get("msg", "invalid value")
        raise ConfigError("task", f"{path}: {loc}: {msg}") from None
    if task.budget > MAX_BUDGET:
        raise ConfigError("task", f"{path}: budget: {task.budget} rounds, more than {MAX_BUDGET}")
    negative = [f"{kind} {name}" for kind, name, qty in _quantities(task) if qty < 0]
    if negative:
        raise ConfigError("task", f"{path}: {negative[0]}: a quantity below 0")
    if task.name in builtin_tasks() or any(a in builtin_tasks() for a in task.aliases):
        raise ConfigError("task", f"{path}: name {task.name!r} is a built-in task's; give the file's task its own name")
    try:
        task.check()
    except (AssertionError, ValueError) as exc:
        raise ConfigError("task", f"{path}: {exc}") from None
    files = [str(path.resolve())]
    if task.verifier is not None:  # run (in its child) once a world is built to play
        if not Path(task.verifier).is_file():
            raise ConfigError("task", f"verifier {task.verifier}: no such file")
        files.append(task.verifier)
    if task.criteria is not None:  # AgentWorld's verifier, and the verifier_utils beside it if any
        files += [str(p) for p in (Path(task.criteria), path.parent / "verifier_utils.py") if p.is_file()]
    _loaded[key] = task
    _files[task.name] = tuple(files)
    return task


def _quantities(task: Task) -> list[tuple[str, str, int]]:
    """Every quantity a task file gives: (what, which, how many)."""
    out = [("target", t.item, t.qty) for t in task.targets] + [("checkpoint", c.name, c.qty) for c in task.checkpoints]
    for i, agent in enumerate(task.agents):
        out += [(f"agents[{i}].inventory", item, qty) for item, qty in agent.inventory.items()]
    return out


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise ConfigError("task", f"{path}: cannot read it ({exc.strerror or exc})") from None


def input_files(task: Task) -> dict[str, str]:
    """The files a loaded task file came from and the sha256 of each (the task file, its verifier):
    recorded with a run, so that a resume after either changed is refused."""
    return {path: _digest(Path(path)) for path in _files.get(task.name, ())}  # as they are now


def loaded_by_name() -> dict[str, Task]:
    """Task files loaded in this process, by their task's name (observations carry the name)."""
    return {t.name: t for t in _loaded.values()}


def verifier_of(task: Task) -> UserCode:
    """The task's `verify(trajectory)` in its own child process, started once per process and
    content; a missing file, or one that does not import within the limit, is a ConfigError."""
    assert task.verifier is not None
    path = Path(task.verifier)
    key = (os.getpid(), task.verifier, _digest(path))
    if key not in _verifiers or _verifiers[key].closed:
        _verifiers[key] = UserCode(path, "verify", task.verifier_seconds)
    return _verifiers[key]


def criteria_of(task: Task) -> UserCode:
    """The child that runs an AgentWorld task's success criteria (agentworld/criteria.py)."""
    assert task.criteria is not None
    criteria = Path(task.criteria)
    key = (os.getpid(), task.criteria, _digest(criteria))
    if key not in _verifiers or _verifiers[key].closed:
        # the task's folder's files (its verifier_utils first), then ours under another name if it has one
        ours = (CRITERIA_RUNNER.parent / "verifier_utils.py", criteria)
        _verifiers[key] = UserCode(CRITERIA_RUNNER, "verify", task.verifier_seconds, files=ours, helpers_of=criteria)
    return _verifiers[key]


def run_criteria(task: Task, trajectory: dict[str, Any]) -> tuple[int, str]:
    """AgentWorld's verdict (score, reason) as its criteria file returns it; a raise, an exit, a hang
    or another shape stops the run (exit 2) with the file named."""
    try:
        child = criteria_of(task)
        answer = child({"criteria": child.copy_of(task.criteria), "trajectory": trajectory})
    except ConfigError as exc:  # name the task's file, not the runner that imported it
        raise ConfigError("task", _named(exc.message, task.criteria)) from None
    score, reason = answer if isinstance(answer, list) and len(answer) == 2 else (None, None)
    if (
        not isinstance(score, (int, float))
        or isinstance(score, bool)
        or score not in (0, 1)
        or not isinstance(reason, str)
    ):
        raise ConfigError("task", f"verifier {task.criteria} returned {answer!r}, not (0 or 1, reason)")
    return int(score), reason


def _named(message: str, criteria: str) -> str:
    """An error of the criteria runner naming the task's criteria file (not the runner, nor a copy)."""
    message = message.replace(str(CRITERIA_RUNNER), criteria)
    return re.sub(r"/\S*mam-bench-verifier-\w+/code/\S*\.py", criteria, message)


def run_verifier(task: Task, trajectory: dict[str, Any]) -> bool:
    """The user verifier's verdict; a raise, an exit, a hang or a non-bool stops the run (exit 2)
    with its file named."""
    verdict = verifier_of(task)(trajectory)
    if not isinstance(verdict, bool):
        raise ConfigError("task", f"verifier {task.verifier} returned {type(verdict).__name__}, not a bool")
    return verdict


def checks_less(task: Task) -> str | None:
    """What an AgentWorld task's criteria leave out of its goal: criteria that name no item and no mob
    (AgentWorld's task_28 asks only that every agent is alive) cannot tell whether the objective was met."""
    if task.targets or task.category == "combat" or not all(c.kind == "alive" for c in task.checkpoints):
        return None
    return (
        f"its success criteria ({Path(task.criteria or '').name}) name no item and no mob, so they check less "
        f"than its goal says ({task.objective.strip()[:120]!r}); its checkpoints fall back to every agent alive"
    )


def describe(task: Task) -> str:
    """One line on the task, and for a task with a verifier what contains its code on this machine."""
    line = _summary(task)
    if task.verifier is None and task.criteria is None:
        return line
    from mam_bench.sandbox import describe as containment

    return "\n".join([line, *(f"  verifier {said}" for said in containment())])


def _summary(task: Task) -> str:
    verifier = Path(task.verifier).name if task.verifier else "none (all checkpoints)"
    if task.criteria is not None and task.agentworld is not None:
        left, not_here = task.agentworld["not_carried"], task.agentworld.get("not_here", [])
        return (
            f"{task.name}: ok - AgentWorld task, {len(task.agents)} agents, {task.budget} rounds, targets "
            f"{', '.join(f'{t.qty} {t.item}' for t in task.targets) or 'none'}, verifier {Path(task.criteria).name}"
            + (f"; not carried over (no effect here): {', '.join(left)}" if left else "")
            + (f"; the verifier reads what this world has not: {', '.join(gone)}" if (gone := not_here) else "")
            + (f"; no agent can make or holds: {', '.join(gaps)}" if (gaps := unreachable(task)) else "")
            + (f"; note: {less}" if (less := checks_less(task)) else "")
        )
    return (
        f"{task.name}: ok - {task.category}, {len(task.agents)} agents, budget {task.budget}, "
        f"{len(task.targets)} targets, {len(task.checkpoints)} checkpoints, verifier {verifier}"
    )
