"""AgentWorld's baselines and ablations as one parameter, `condition` (its agents/BASELINES.md and
the paper's Tables 3 and 4), applied to this world's agents, rule-driven and influence alike.

- `standard`: the world as it is.
- `single_agent`: one agent with every agent's skills (the best level of each), items and equipment,
  at the first agent's spawn; it alone must reach every target (AgentWorld's solo upper bound).
- `no_communication`: no chat, request, transfer or trade tools; no chat history, no pending
  requests or offers, and no other agent visible (team and co-located lists) in the observation.
- `shared_plan_only`: communication cut as above, with the task's shared plan in the prompt
  (`shared_plan`, else its relevant context); ordinary agents follow the shared-plan strategy.
- `oracle_communication`: one agent (the task's coordinator agent, else agent 0) reads every chat
  message of the team, addressed to it or not.
- `no_roles`: names and roles are hidden (generic Agent_k) and the prompt says roles are not
  pre-assigned; skills, items and agents stay as they are.
- `random_spawn`: each agent spawns at a cell drawn from its own stream (`spawn`, agent index) in the
  bounding box of the task's spawn sites widened by 5 cells, or in `spawn_region` (x1,y1,x2,y2), as
  upstream's `random_location`; on a site's cell it is at that site, elsewhere it must move first.
- `discussion_rounds=N` (a parameter, as upstream's `--discussion-rounds N`): the first N rounds
  offer only chat (and sleep, the null action); from round N communication is cut as under
  `no_communication`. The N rounds are part of the budget.
- `no_docs`: the prompt carries no task documentation (relevant context).

Prompt-only conditions (`no_roles`, `no_docs`, and the plan of `shared_plan_only`) do not change
what the rule-driven agents do; the README says so beside their figures.

Conditions combine as upstream's switches do: `condition=no_roles,random_spawn` plays both.
"""

from __future__ import annotations

import typing
from typing import Literal

from mam_bench.models.crafting.catalog import Catalog
from mam_bench.models.crafting.tasks import AgentSpec, Checkpoint, Target, Task
from mam_bench.streams import stream

Condition = Literal[
    "standard",
    "single_agent",
    "no_communication",
    "shared_plan_only",
    "oracle_communication",
    "no_roles",
    "random_spawn",
    "no_docs",
]
#: the tools that talk to, or hand things to, another agent
COMMUNICATION_TOOLS = frozenset({"chat", "request", "transfer", "offer_trade", "accept_trade"})
#: what a discussion round offers: chat, and sleep as the null action
DISCUSSION_TOOLS = frozenset({"chat", "sleep"})
#: upstream's communication baselines, of which a run plays at most one
EXCLUSIVE = ("no_communication", "shared_plan_only")
#: cells the random spawn box reaches beyond the task's spawn sites (upstream's margin)
SPAWN_MARGIN = 5
NO_ROLES_LINE = (
    "Roles are not pre-assigned: do not infer a division of labour from names; organise the team yourselves."
)


def switches(condition: str) -> list[str]:
    """The conditions a `condition` value names (comma-separated), validated: each known, none
    twice, `standard` only alone."""
    names = [c.strip() for c in condition.split(",")]
    known = typing.get_args(Condition)
    for name in names:
        if name not in known:
            raise ValueError(f"unknown condition {name!r} (known: {', '.join(known)})")
    if len(set(names)) < len(names):
        raise ValueError("a condition is named twice")
    if "standard" in names and len(names) > 1:
        raise ValueError("standard combines with nothing (it is the absence of every other)")
    return names


def has(condition: str, name: str) -> bool:
    """Whether the (validated) `condition` value switches `name` on."""
    return name in (c.strip() for c in condition.split(","))


def cuts_communication(condition: str) -> bool:
    return has(condition, "no_communication") or has(condition, "shared_plan_only")


def now(condition: str, discussion_rounds: int, round_: int) -> str:
    """The condition this round plays: during the discussion rounds `discussion` is on, after them
    `no_communication`."""
    if not discussion_rounds:
        return condition
    phase = "discussion" if round_ < discussion_rounds else "no_communication"
    return phase if condition == "standard" else f"{condition},{phase}"


def task_under(task: Task, condition: str, seed: int, cat: Catalog) -> Task:
    """The task as this condition plays it (the same for reference and treatment: seed only)."""
    return solo(task, cat) if has(condition, "single_agent") else task


def spawn_cells(
    task: Task, cat: Catalog, seed: int, grid: tuple[int, int], region: tuple[int, int, int, int] | None
) -> list[tuple[int, int]]:
    """Each agent's random spawn cell: uniform in `region` (x1,y1,x2,y2), else in the bounding box of
    the task's spawn sites widened by SPAWN_MARGIN, kept on the grid."""
    if region is None:
        xs, ys = zip(*(cat.sites[a.spawn] for a in task.agents))
        region = (min(xs) - SPAWN_MARGIN, min(ys) - SPAWN_MARGIN, max(xs) + SPAWN_MARGIN, max(ys) + SPAWN_MARGIN)
    x1, y1, x2, y2 = region
    x1, x2 = max(0, min(x1, x2)), min(grid[0] - 1, max(x1, x2))
    y1, y2 = max(0, min(y1, y2)), min(grid[1] - 1, max(y1, y2))
    cells = []
    for i in range(len(task.agents)):
        draw = stream(seed, "spawn", i)
        cells.append((int(draw.integers(x1, x2 + 1)), int(draw.integers(y1, y2 + 1))))
    return cells


def solo(task: Task, cat: Catalog) -> Task:
    """One agent holding every agent's abilities: skills at their best level, items summed,
    equipment joined, everything any agent makes; every target and checkpoint is its own."""
    first = task.agents[0]
    skills: dict[str, int] = {}
    inventory: dict[str, int] = {}
    equipment: list[str] = []
    makes: list[str] = []
    for spec in task.agents:
        role = cat.roles[spec.role]
        for skill, level in (spec.skills if spec.skills is not None else role.skills).items():
            skills[skill] = max(skills.get(skill, 0), level)
        for item, qty in spec.inventory.items():
            inventory[item] = inventory.get(item, 0) + qty
        equipment += [e for e in spec.equipment if e not in equipment]
        makes += [m for m in (spec.makes if spec.makes is not None else role.makes) if m not in makes]
    agent = AgentSpec(
        role=first.role, spawn=first.spawn, inventory=inventory, equipment=equipment, makes=makes, skills=skills
    )
    targets = [Target(item=t.item, qty=t.qty, to=0) for t in task.targets]
    checkpoints = [
        Checkpoint(**{**cp.model_dump(), "scope": "any"}) if cp.scope != "any" else cp for cp in task.checkpoints
    ]
    return task.model_copy(update={"agents": [agent], "targets": targets, "checkpoints": checkpoints})


def oracle_agent(task: Task, cat: Catalog) -> int:
    """The agent that reads every message under `oracle_communication`."""
    return next((i for i, a in enumerate(task.agents) if cat.roles[a.role].coordinator), 0)
