"""Tasks as data (data/tasks/*.yaml) and their verifiers with named checkpoints.

A verifier reads a final state (inventories, sites, roles, craft and harvest counts), so tests
can hand-build states; it returns AgentWorld's `(0|1, "checkpoint string")` plus fractions.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from mam_bench.models.crafting.catalog import DATA, task_catalog


class AgentSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    role: str
    spawn: str
    inventory: dict[str, int] = Field(default_factory=dict)
    equipment: list[str] = Field(default_factory=list)
    makes: list[str] | None = None
    #: this agent's skill levels, replacing its role's (a task may give an agent less than a node or recipe needs)
    skills: dict[str, int] | None = None
    #: its name in observations and records (default: role_k); an AgentWorld task's own usernames
    username: str | None = None


class Target(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    item: str
    qty: int
    to: str | int  # "role:smith" or an agent index


class Checkpoint(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    kind: Literal["held", "crafted", "harvested", "at_site", "kills", "alive", "discovered", "traded"]
    qty: int
    item: str | None = None
    scope: str = "any"  # any | role:<role> | agent:<index>
    site: str | None = None


class Task(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    aliases: list[str] = Field(default_factory=list)
    category: str
    description: str
    objective: str
    budget: int
    agents: list[AgentSpec]
    targets: list[Target]
    checkpoints: list[Checkpoint]
    rally: str | None = None
    hunger: int = Field(0, ge=0, le=5, description="health every standing agent loses per round (survival.py)")
    staple: str | None = None  # the food an ordinary agent orders when low
    survey: list[str] = Field(default_factory=list)  # hidden sites the task asks to find (exploration.py)
    #: a user task's verify(trajectory) -> bool file (absolute once loaded; task_files.py)
    verifier: str | None = None
    #: how long the verifier may take to import, and then to answer each call (it runs in a child)
    verifier_seconds: float = Field(10.0, gt=0, le=600)
    #: the plan text `condition=shared_plan_only` puts in every prompt (else the relevant context)
    shared_plan: str | None = None
    #: an AgentWorld success-criteria file (agentworld/tasks.py): its verify(trajectory) -> (score,
    #: reason), run unchanged on the AgentWorld-shaped trajectory (agentworld/trajectory.py)
    criteria: str | None = None
    #: an AgentWorld task file as read ("file") and what of it is not carried over ("not_carried")
    agentworld: dict[str, Any] | None = None

    def holders(self, scope: str | int) -> list[int]:
        """Agent indices a scope names (targets and checkpoints share the syntax)."""
        if isinstance(scope, int):
            return [scope]
        if scope == "any":
            return list(range(len(self.agents)))
        kind, _, value = scope.partition(":")
        if kind == "role":
            return [i for i, a in enumerate(self.agents) if a.role == value]
        if kind == "agent":
            return [int(value)]
        raise ValueError(f"unknown scope {scope!r}")

    @property
    def from_agentworld(self) -> bool:
        """An AgentWorld task file: its own tools and its transfers at any distance are offered."""
        return self.criteria is not None

    def username(self, index: int) -> str:
        if self.agents[index].username:
            return self.agents[index].username
        role = self.agents[index].role
        k = sum(1 for a in self.agents[:index] if a.role == role) + 1
        return f"{role}_{k}"

    def check(self) -> Task:
        cat = task_catalog(self)
        assert 3 <= len(self.agents) <= 20, f"{self.name}: 3 to 20 agents"
        assert self.budget >= 1, f"{self.name}: budget must be at least 1 round"
        for a in self.agents:
            assert a.role in cat.roles, f"{self.name}: unknown role {a.role!r} (known: {', '.join(sorted(cat.roles))})"
            assert a.spawn in cat.sites, (
                f"{self.name}: unknown spawn site {a.spawn!r} (known: {', '.join(sorted(cat.sites))})"
            )
            for item in [*a.inventory, *a.equipment, *(a.makes or [])]:
                assert item in cat.items, f"{self.name}: unknown item {item}"
        for t in self.targets:
            assert t.item in cat.items, f"{self.name}: unknown target {t.item}"
        assert self.staple is None or self.staple in cat.items, f"{self.name}: unknown staple"
        assert all(s in cat.hidden for s in self.survey), f"{self.name}: survey names a site that is not hidden"
        for scope in [t.to for t in self.targets] + [cp.scope for cp in self.checkpoints]:
            holders = self.holders(scope)
            assert holders and all(0 <= i < len(self.agents) for i in holders), (
                f"{self.name}: scope {scope!r} names no agent"
            )
        assert self.checkpoints, f"{self.name}: a task needs at least one checkpoint"
        kinds = {m.kind for m in cat.mobs.values()}
        for cp in self.checkpoints:
            assert cp.kind != "kills" or cp.item in kinds, f"{self.name}: {cp.name} names no mob kind"
            assert cp.kind not in ("at_site", "discovered") or cp.site in cat.sites, f"{self.name}: {cp.name}"
        return self


@lru_cache(maxsize=1)
def builtin_tasks() -> dict[str, Task]:
    tasks = {}
    for path in sorted((DATA / "tasks").glob("*.yaml")):
        task = Task.model_validate(yaml.safe_load(path.read_text())).check()
        tasks[task.name] = task
    return tasks


def all_tasks() -> dict[str, Task]:
    """The built-in tasks (data/tasks), by name."""
    return builtin_tasks()


def task_names() -> list[str]:
    return sorted(all_tasks())


def get_task(name: str) -> Task:
    """A built-in task by name or alias, or a user's task file by path (task_files.py)."""
    tasks = all_tasks()
    if name in tasks:
        return tasks[name]
    for t in tasks.values():
        if name in t.aliases:
            return t
    from mam_bench.models.crafting.task_files import load_task_file, loaded_by_name, looks_like_file

    if looks_like_file(name):
        return load_task_file(name)
    if name in loaded_by_name():
        return loaded_by_name()[name]
    raise KeyError(name)


def checkpoint_progress(task: Task, state: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(name, achieved, target) per checkpoint over a final state.

    state: inventories {index: {item: n}}, sites {index: site}, crafted {item: n},
    harvested {item: n}, kills {mob kind: n}, health {index: n} (an agent missing from it does
    not count as alive), known {index: [hidden sites]}, trades (accepted, a count); string or
    int keys accepted.
    """
    inv = {int(k): v for k, v in state.get("inventories", {}).items()}
    sites = {int(k): v for k, v in state.get("sites", {}).items()}
    health = {int(k): v for k, v in state.get("health", {}).items()}
    known = {int(k): v for k, v in state.get("known", {}).items()}
    out = []
    for cp in task.checkpoints:
        if cp.kind == "held":
            got = sum(inv.get(i, {}).get(cp.item, 0) for i in task.holders(cp.scope))
        elif cp.kind == "crafted":
            got = state.get("crafted", {}).get(cp.item, 0)
        elif cp.kind == "harvested":
            got = state.get("harvested", {}).get(cp.item, 0)
        elif cp.kind == "kills":
            got = state.get("kills", {}).get(cp.item, 0)
        elif cp.kind == "alive":
            got = sum(1 for i in task.holders(cp.scope) if health.get(i, 0) > 0)
        elif cp.kind == "discovered":
            got = sum(1 for i in task.holders(cp.scope) if cp.site in known.get(i, ()))
        elif cp.kind == "traded":
            got = state.get("trades", 0)
        else:
            got = sum(1 for i in task.holders(cp.scope) if sites.get(i) == cp.site)
        out.append((cp.name, int(got), cp.qty))
    return out


def verify(task: Task, state: dict[str, Any], trajectory: dict[str, Any] | None = None) -> tuple[int, str]:
    """AgentWorld's verifier shape: (1 if every checkpoint holds else 0, the checkpoint string).
    A user task's own verifier, where it has one and a trajectory is given, decides success."""
    progress = checkpoint_progress(task, state)
    ok = all(got >= need for _, got, need in progress)
    text = "; ".join(f"{name}: {min(got, need)}/{need}" for name, got, need in progress)
    if task.criteria is not None and trajectory is not None:
        from mam_bench.models.crafting.task_files import run_criteria

        return run_criteria(task, trajectory)
    if task.verifier is not None and trajectory is not None:
        from mam_bench.models.crafting.task_files import run_verifier

        ok = run_verifier(task, trajectory)
    return (1 if ok else 0), text


def psr(task: Task, state: dict[str, Any], mode: str = "fractional") -> float:
    """Partial success: mean over checkpoints of min(1, got/target) (or 0/1 in binary mode)."""
    progress = checkpoint_progress(task, state)
    if mode == "binary":
        parts = [1.0 if got >= need else 0.0 for _, got, need in progress]
    else:
        parts = [min(1.0, got / need) for _, got, need in progress]
    return sum(parts) / len(parts)
