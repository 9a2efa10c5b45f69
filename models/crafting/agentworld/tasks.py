"""AgentWorld's task files (`task_NN_*.yaml`) read as this world's tasks.

Read from the file: the agents (`agent_1` ...) with their usernames, skill levels, inventories and
equipped items; `max_action_steps` as the round budget; `objectives` and `relevant_game_context`.
The success-criteria file beside it (`task_NN_success_criteria.py`) decides success, run unchanged
(criteria.py); its item keys, with the quantities the task's text gives (`8x corn`, else 1), become
the targets and checkpoints the rule team plans for and PSR counts. This world has sites, not
tiles, so an agent spawns at the site of its work. A name the table (names.py) lacks is a mechanic
this world does not have: the file is refused, naming it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.models.crafting.agentworld.names import PASSIVE_SKILLS, SKILLS, WORN_ONLY, mob_kinds, ours
from mam_bench.models.crafting.catalog import catalog, meets

#: verifier_utils calls whose second argument is an item key
ITEM_CALLS = {"has_item_in_any_inventory", "count_item_in_inventories"}
#: trajectory keys a criteria file reads with `.get(key, default)`, which are not items
TRAJECTORY_KEYS = frozenset(
    "rounds actions observation inventory items status result message mobs key count round agent_name "
    "action hitpoints playerstatus task_definition username name instance".split()
)


def is_agentworld(data: dict[str, Any]) -> bool:
    """AgentWorld's layout: `max_action_steps` and numbered agents, where ours has `name` and `agents`."""
    return "max_action_steps" in data or "agent_1" in data


def criteria_file(path: Path) -> Path:
    """`task_NN_success_criteria.py` beside `task_NN_*.yaml`."""
    number = re.match(r"task_(\d+)_", path.name)
    if number is None:
        raise ConfigError("task", f"{path}: an AgentWorld task file is named task_NN_<name>.yaml")
    found = path.parent / f"task_{number.group(1)}_success_criteria.py"
    if not found.is_file():
        raise ConfigError("task", f"{path}: no {found.name} beside it (AgentWorld's verifier for the task)")
    return found


def check_names(path: Path, data: dict[str, Any], keys: list[str]) -> None:
    """Every skill and item of an agent's kit is in the table (names.py, data/agentworld.yaml), or
    the file is refused naming each one missing: a mechanic this world does not have."""
    items, skills = [], []
    for k in keys:
        spec = data[k] if isinstance(data[k], dict) else {}
        skills += [str(s).lower() for s in spec.get("skill_levels") or {}]
        items += [str(e.get("item", "")).lower() for e in spec.get("inventory_items") or [] if isinstance(e, dict)]
        items += [str(e.get("item", "")).lower() for e in spec.get("equipped_items") or [] if isinstance(e, dict)]
    missing = [
        *(f"skill {s!r}" for s in dict.fromkeys(skills) if s not in SKILLS and s not in PASSIVE_SKILLS),
        *(f"item {i!r}" for i in dict.fromkeys(items) if ours(i) is None and i not in WORN_ONLY),
    ]
    if missing:
        raise ConfigError("task", f"{path}: needs {', '.join(missing)}, which this world does not have")


def _reachable(tree: ast.Module) -> list[ast.AST]:
    """The functions `verify` calls, directly or not (a criteria file may keep unused variants)."""
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    todo, seen = ["verify"], []
    while todo:
        name = todo.pop()
        if name in funcs and funcs[name] not in seen:
            seen.append(funcs[name])
            todo += [
                c.func.id for c in ast.walk(funcs[name]) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
            ]
    return seen


def criteria_needs(criteria: Path) -> tuple[list[str], list[str]]:
    """(item keys, mob patterns) the verifier's `verify` reads, in order of first use."""
    try:
        tree = ast.parse(criteria.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError) as exc:
        raise ConfigError("task", f"{criteria}: not readable Python ({exc})") from None
    items: list[str] = []
    mobs: list[str] = []
    for func in _reachable(tree):
        for call in (c for c in ast.walk(func) if isinstance(c, ast.Call)):
            name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
            consts = [a.value for a in ast.walk(call) if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in ITEM_CALLS and len(call.args) >= 2 and isinstance(call.args[1], ast.Constant):
                items.append(str(call.args[1].value).lower())
            elif name == "get" and len(call.args) == 2 and isinstance(call.args[0], ast.Constant):
                key = str(call.args[0].value).lower()  # agent_items[...].get("corn", 0)
                if key not in TRAJECTORY_KEYS:
                    items.append(key)
            elif name == "check_crafted_items":
                items += [c.lower() for c in consts]
            elif name in ("count_combat_kills", "count_attack_actions"):
                mobs += [c.lower() for c in consts]
    return list(dict.fromkeys(items)), list(dict.fromkeys(mobs))


def _agent(path: Path, key: str, spec: Any) -> tuple[dict[str, Any], list[str]]:
    """(this world's agent spec, what of it is not carried over)."""
    if not isinstance(spec, dict):
        raise ConfigError("task", f"{path}: {key}: expected a mapping")
    skills: dict[str, int] = {}
    role, best, passive = None, -1, []
    for name, level in (spec.get("skill_levels") or {}).items():
        name = str(name).lower()
        if name in PASSIVE_SKILLS:
            passive.append(name)
            continue
        skill, its_role = SKILLS[name]
        skills[skill] = max(skills.get(skill, 0), int(level))
        rank = int(level) + (1000 if its_role != "fighter" else 0)  # a productive skill names the role
        if rank > best:
            role, best = its_role, rank
    inventory: dict[str, int] = {}
    for entry in spec.get("inventory_items") or []:
        item = str(ours(str(entry.get("item", ""))))
        inventory[item] = inventory.get(item, 0) + int(entry.get("count", 1))
    equipment, worn = [], []
    for entry in spec.get("equipped_items") or []:
        key_ = str(entry.get("item", "")).lower()
        if key_ in WORN_ONLY:
            worn.append(key_)
        else:
            equipment.append(str(ours(key_)))
    role = role or "merchant"
    cat = catalog("agentworld")
    work = [n.site for m in cat.roles[role].makes if cat.items.get(m) == "raw" for n in cat.raw_nodes(m)]
    agent = {
        "role": role,
        "username": str(spec.get("username", key)),
        "spawn": work[0] if work else "town",
        "inventory": inventory,
        "equipment": equipment,
        "skills": skills,
        "makes": can_make(skills, role),
    }
    return agent, [*(f"{key}: skill {s}" for s in passive), *(f"{key}: worn {w}" for w in worn)]


def can_make(skills: dict[str, int], role: str) -> list[str]:
    """What an AgentWorld agent may produce: as there, anything its skill levels allow (every recipe
    and node at or under its levels), and a fighter's loot."""
    cat = catalog("agentworld")
    made = [out for out, r in cat.recipes.items() if meets(skills, r.skill, r.level)]
    made += [n.resource for n in cat.nodes.values() if meets(skills, n.skill, n.level)]
    loot = [m for m in cat.roles[role].makes if cat.items.get(m) == "loot"]
    return list(dict.fromkeys([*loot, *sorted(made)]))


def _quantity(key: str, text: str) -> int:
    found = re.findall(rf"(\d+)\s*x\s*{re.escape(key)}\b", text, flags=re.IGNORECASE)
    return max((int(n) for n in found), default=1)


def _holder(key: str, lines: list[str], agents: list[dict[str, Any]]) -> int:
    for line in lines:
        if key in line.lower():
            for i, a in enumerate(agents):
                if re.search(rf"\b{re.escape(a['username'].lower())}\b", line.lower()):
                    return i
    return 0


def from_agentworld(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """This world's task fields for AgentWorld's task file `path` (read as `data`)."""
    keys = sorted((k for k in data if re.fullmatch(r"agent_\d+", str(k))), key=lambda k: int(k.split("_")[1]))
    if not keys:
        raise ConfigError("task", f"{path}: agent_1: Field required")
    criteria = criteria_file(path)
    wanted, mobs = criteria_needs(criteria)
    usernames = {str(data[k].get("username", k)).lower() for k in keys if isinstance(data[k], dict)}
    wanted = [w for w in wanted if w not in usernames and not re.fullmatch(r"agent_\d+", w)]
    check_names(path, data, keys)
    kinds = mob_kinds()
    # what the verifier reads that this world has no item or mob for: it counts 0 here; listed
    not_here = [f"item {w}" for w in wanted if ours(w) is None]
    not_here += [f"mob {m}" for m in mobs if not any(k in m or m in k for k in kinds)]
    agents, not_carried = [], []
    for k in keys:
        agent, left = _agent(path, k, data[k])
        agents.append(agent)
        not_carried += left
    head = data.get("task") or {}
    objective = str((data.get("objectives") or {}).get("primary", head.get("description", "")))
    lines = [str(s) for s in data.get("success_criteria") or []]
    text = " ".join([objective, *lines])
    cat = catalog("agentworld")
    targets = []
    for key in (w for w in wanted if ours(w) is not None):
        item = str(ours(key))
        targets.append({"item": item, "qty": _quantity(key, text), "to": _holder(key, lines, agents)})
    checkpoints = [
        {"name": f"{t['item']} held", "kind": "held", "item": t["item"], "qty": t["qty"], "scope": f"agent:{t['to']}"}
        for t in targets
    ] or [{"name": "everyone alive", "kind": "alive", "qty": len(agents), "scope": "any"}]
    crafted = any(t["item"] in cat.recipes for t in targets)
    return {
        "name": path.stem,
        "category": "combat" if mobs else "crafting" if crafted else "gathering",
        "description": str(head.get("name", path.stem)),
        "objective": objective,
        "budget": int(data.get("max_action_steps", 50)),
        "agents": agents,
        "targets": targets,
        "checkpoints": checkpoints,
        "shared_plan": data.get("relevant_game_context"),
        "criteria": str(criteria.resolve()),
        "agentworld": {"file": data, "not_carried": not_carried, "not_here": not_here},
        **({"verifier_seconds": data["verifier_seconds"]} if "verifier_seconds" in data else {}),
    }


def unreachable(task: Any) -> list[str]:
    """What the task's targets need that no agent can make or holds at the start, with the recipe
    path to it: an AgentWorld recipe this world makes differently (its axe takes a stick) can leave
    a team that AgentWorld equips unable to finish here. `--check` says so; the run still plays."""
    cat = catalog("agentworld")
    makes = set().union(*(a.makes or cat.roles[a.role].makes for a in task.agents))
    stock = {i for a in task.agents for i in a.inventory}  # what a recipe can consume
    tools = stock | {i for a in task.agents for i in a.equipment}  # what a harvest can use
    gaps: list[str] = []

    def need(item: str, path: str, tool: bool = False) -> None:
        if item in (tools if tool else stock):
            return
        if item not in makes:
            gaps.append(f"{path}{item}")
            return
        recipe = cat.recipes.get(item)
        for part in recipe.inputs if recipe else ():
            need(part, f"{path}{item} <- ")
        for node in [] if recipe else cat.raw_nodes(item)[:1]:
            if node.tool:
                need(node.tool, f"{path}{item} <- ", tool=True)

    for t in task.targets:
        need(t.item, "")
    return list(dict.fromkeys(gaps))
