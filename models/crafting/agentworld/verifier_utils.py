"""The helpers AgentWorld's `task_NN_success_criteria.py` files import, written here from their
documented behaviour (names, arguments, results; the version whose criteria files import
`verify_combat`), so those files run unchanged on a trajectory this world records. A
`verifier_utils.py` beside a task file is used instead of this one.

A trajectory: {"task_definition": the task file, "rounds": [{"round": r, "actions": [{"agent_name",
"action", "status", "observation": {"status", "result", "inventory": {"items": [{"key",
"count"}]}, "playerStatus": {"hitPoints"}, "mobs"}}]}]}.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

HP = re.compile(r"❤️(\d+)/(\d+)")
KILL_WORDS = (
    "dead", "killed", "defeated", "victory", "died", "slain", "destroy", "eliminated", "vanquished", "dropped",
    "hp dropped to 0", "hp: 0", "health: 0",
)  # fmt: skip
HP_ZERO = ('"hp": 0', '"hp":0', '"hitpoints": 0', '"hitpoints":0')


def _acts(traj: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    for rnd in traj.get("rounds", []):
        for act in rnd.get("actions", []):
            yield rnd.get("round", 0), act


def _items(act: dict[str, Any]) -> list[dict[str, Any]] | None:
    obs = act.get("observation", {})
    inv = obs.get("inventory") if isinstance(obs, dict) else None
    return inv.get("items") if isinstance(inv, dict) and "items" in inv else None


def _count(items: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for it in items:
        key = it.get("key", "").lower()
        out[key] = out.get(key, 0) + it.get("count", 0)
    return out


def _hp(status: str) -> tuple[int, int] | None:
    found = HP.search(status)
    return (int(found.group(1)), int(found.group(2))) if found else None


def get_final_inventories(traj_json: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each agent's last observed inventory."""
    return {act.get("agent_name", ""): items for _, act in _acts(traj_json) if (items := _items(act)) is not None}


def aggregate_item_counts(inventories: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """Item key (lower case) -> count summed over agents."""
    return _count([it for items in inventories.values() for it in items])


def get_all_inventories(traj_json: dict[str, Any]) -> dict[str, dict[int, list[dict[str, Any]]]]:
    """agent -> round -> its last inventory observed in that round."""
    out: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for rnd, act in _acts(traj_json):
        if (items := _items(act)) is not None:
            out.setdefault(act.get("agent_name", ""), {})[rnd] = items
    return out


def count_item_in_inventories(inventories: dict[str, list[dict[str, Any]]], item_key: str) -> int:
    return aggregate_item_counts(inventories).get(item_key.lower(), 0)


def has_item_in_any_inventory(inventories: dict[str, list[dict[str, Any]]], item_key: str, min_count: int = 1) -> bool:
    """Whether one agent's single entry of the item holds at least `min_count`."""
    return any(
        it.get("key", "").lower() == item_key.lower() and it.get("count", 0) >= min_count
        for items in inventories.values()
        for it in items
    )


def check_agents_alive(traj_json: dict[str, Any]) -> bool:
    """False once any status line showed 0 hit points."""
    return all(hp[0] > 0 for _, act in _acts(traj_json) if (hp := _hp(act.get("status", ""))))


def check_agent_alive(traj_json: dict[str, Any], agent_name: str) -> bool:
    """Upstream's reads every agent's status line whichever agent is named (its loop rebinds the
    name), so it answers as `check_agents_alive`; kept so that verdicts match upstream's."""
    return check_agents_alive(traj_json)


def get_final_hp(traj_json: dict[str, Any]) -> dict[str, int]:
    return {act.get("agent_name", ""): hp[0] for _, act in _acts(traj_json) if (hp := _hp(act.get("status", "")))}


def get_final_agent_status(traj_json: dict[str, Any]) -> dict[str, dict[str, int]]:
    """{agent: {"current", "max"}} from the last round's status lines."""
    if not traj_json.get("rounds"):
        return {}
    out = {}
    for act in traj_json["rounds"][-1].get("actions", []):
        if hp := _hp(act.get("status", "")):
            out[act.get("agent_name", "")] = {"current": hp[0], "max": hp[1]}
    return out


def get_final_agent_hp_simple(traj_json: dict[str, Any]) -> dict[str, int]:
    """Hit points per agent from the last round's status lines."""
    if not traj_json.get("rounds"):
        return {}
    last = traj_json["rounds"][-1].get("actions", [])
    return {act.get("agent_name", ""): hp[0] for act in last if (hp := _hp(act.get("status", "")))}


def verify_combat(traj_json: dict[str, Any], target_name: str | None) -> int:
    """Without a target: the number of `attack_entity` actions. With one: the number of distinct
    mob instances (seen in any observation, named like the target) that an `attack_entity` action
    names."""
    attacks = [
        act.get("action", "").lower() for _, act in _acts(traj_json) if "attack_entity" in act.get("action", "").lower()
    ]
    if not target_name:
        return len(attacks)
    names: dict[str, str] = {}
    for _, act in _acts(traj_json):
        obs = act.get("observation", {})
        for mob in obs.get("mobs", []) if isinstance(obs, dict) else []:
            if mob.get("instance", "") and mob.get("name", ""):
                names[mob["instance"]] = mob["name"].lower()
    hit: set[str] = set()
    for text in attacks:
        for inst, name in names.items():
            if inst in text and target_name.lower() in name and inst not in hit:
                hit.add(inst)
                break
    return len(hit)


def count_combat_kills(traj_json: dict[str, Any], target_patterns: list[str]) -> int:
    """How many of the patterns were seen killed (each pattern counts once): an observed mob named
    like it at 0 hit points, or an attack or chat whose observation names it with a kill word (an
    attack also with a zero-hit-points field)."""
    killed: set[str] = set()
    for _, act in _acts(traj_json):
        action, obs = act.get("action", "").lower(), act.get("observation", {})
        text = json.dumps(obs).lower() if isinstance(obs, dict) else obs.lower() if isinstance(obs, str) else ""
        text += " " + str(act.get("result", "")).lower()
        for mob in obs.get("mobs", []) if isinstance(obs, dict) else []:
            if mob.get("hitPoints", -1) == 0:
                killed |= {p.lower() for p in target_patterns if p.lower() in mob.get("name", "").lower()}
        said = any(w in text for w in KILL_WORDS)
        for p in (p.lower() for p in target_patterns):
            if p in text and (
                "attack" in action and (said or any(z in text for z in HP_ZERO)) or "chat" in action and said
            ):
                killed.add(p)
    return len(killed)


def check_boss_killed_by_loot(inventories: dict[str, list[dict[str, Any]]], loot_items: list[str]) -> bool:
    """A boss counts as killed when any of its loot is held."""
    return any(has_item_in_any_inventory(inventories, item) for item in loot_items)


def _matches(text: str, patterns: list[str] | None) -> bool:
    return not patterns or any(p.lower() in text for p in patterns)


def count_attack_actions(traj_json: dict[str, Any], target_patterns: list[str] | None = None) -> int:
    return sum(
        1
        for _, act in _acts(traj_json)
        if "attack" in (text := act.get("action", "").lower()) and _matches(text, target_patterns)
    )


def _crafted(act: dict[str, Any]) -> bool:
    obs = act.get("observation", {})
    return "craft" in act.get("action", "").lower() and isinstance(obs, dict) and obs.get("status") == "success"


def count_crafted_items(traj_json: dict[str, Any]) -> int:
    """Successful craft actions."""
    return sum(1 for _, act in _acts(traj_json) if _crafted(act))


def check_crafted_items(traj_json: dict[str, Any], item_patterns: list[str]) -> dict[str, int]:
    """pattern -> successful craft actions whose action text contains it."""
    out = dict.fromkeys(item_patterns, 0)
    for _, act in _acts(traj_json):
        if _crafted(act):
            for p in item_patterns:
                out[p] += p.lower() in act.get("action", "").lower()
    return out


def count_chat_messages(traj_json: dict[str, Any]) -> int:
    return sum(1 for _, act in _acts(traj_json) if "chat" in act.get("action", "").lower())


def get_agent_items_by_username(traj_json: dict[str, Any]) -> dict[str, dict[str, int]]:
    """username -> item counts of its last inventory; an `agent_k` name is read through the task
    definition's usernames."""
    names = {
        k: v.get("username", k)
        for k, v in traj_json.get("task_definition", {}).items()
        if k.startswith("agent_") and isinstance(v, dict)
    }
    last = get_final_inventories(traj_json)
    return {names.get(agent, agent): _count(items) for agent, items in last.items()}
