"""The actions an agent may legally take, as far as its own observation shows: what the `random`
controller draws from (uniformly over the tools that have any legal action, then over that
tool's actions), as AgentWorld's random agent draws among the legal actions it can observe.

Legality here is the world's own (`action_table.precondition`) read off the observation; the one
thing an observation cannot show is whether an offerer still holds what it offers, so an
`accept_trade` may still fail as `the offer is no longer covered`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.catalog import meets, task_catalog
from mam_bench.models.crafting.combat import ARMOR, WEAPONS
from mam_bench.models.crafting.conditions import COMMUNICATION_TOOLS, DISCUSSION_TOOLS, cuts_communication, has
from mam_bench.models.crafting.survival import FOOD, MAX_HEALTH
from mam_bench.models.crafting.tasks import get_task

if TYPE_CHECKING:
    from mam_bench.models.crafting.observe import CraftingObservation

Action = dict[str, Any]


def legal_actions(obs: CraftingObservation) -> dict[str, list[Action]]:
    """Tool -> its legal actions now (sleep always; a tool with none is left out)."""
    task = get_task(obs.task)
    cat = task_catalog(task)
    inv = obs.inventory
    held = sorted(i for i, n in inv.items() if n > 0)
    others = [i for i, _, _ in obs.team if i != obs.actor_id]
    out: dict[str, list[Action]] = {"sleep": [{"tool": "sleep"}]}
    out["eat"] = [{"tool": "eat", "item": i} for i in held if i in FOOD and obs.health < MAX_HEALTH]
    if obs.health > 0:
        known = set(obs.known)
        out["move_to"] = [
            {"tool": "move_to", "site": s}
            for s in sorted(cat.sites)
            if s != obs.site and (s not in cat.hidden or s in known)
        ]
        out["harvest"] = [
            {"tool": "harvest", "node": node}
            for node, _, stock, tool in obs.nodes
            if stock > 0
            and meets(obs.skills, cat.nodes[node].skill, cat.nodes[node].level)
            and (tool == "-" or tool in obs.equipment)
        ]
        out["craft"] = [
            {"tool": "craft", "item": item}
            for item, r in sorted(cat.recipes.items())
            if cat.stations[r.station] == obs.site
            and meets(obs.skills, r.skill, r.level)
            and all(inv.get(i, 0) >= k for i, k in r.inputs.items())
        ]
        out["equip"] = [
            {"tool": "equip", "item": i}
            for i in held
            if (cat.items.get(i) == "tool" or i in WEAPONS or i in ARMOR) and i not in obs.equipment
        ]
        if obs.skills.get("strength", 0) > 0:
            out["attack"] = [{"tool": "attack", "mob": m} for m, _, health, _ in obs.mobs if health > 0]
        if any(near == obs.site and s not in known for s, near in cat.hidden.items()):
            out["explore"] = [{"tool": "explore"}]
        if not cuts_communication(obs.condition):
            out["chat"] = [{"tool": "chat", "message": "hello team"}]
            out["transfer"] = [
                {"tool": "transfer", "item": i, "qty": 1, "to": to}
                for i in held
                for to in (others if task.from_agentworld else obs.here)
            ]
            out["request"] = [
                {"tool": "request", "item": i, "qty": 1, "to": to} for i in sorted(cat.items) for to in others
            ]
            out["offer_trade"] = [
                {"tool": "offer_trade", "item": i, "qty": 1, "want": w, "want_qty": 1}
                for i in held
                for w in sorted(cat.items)
                if w != i
            ]
            out["accept_trade"] = [
                {"tool": "accept_trade", "offer": oid}
                for oid, frm, _, _, want, want_qty in obs.offers
                if frm in obs.here and inv.get(want, 0) >= want_qty
            ]
    assert not (cuts_communication(obs.condition) and COMMUNICATION_TOOLS & set(out))
    if has(obs.condition, "discussion"):
        out = {tool: actions for tool, actions in out.items() if tool in DISCUSSION_TOOLS}
    return {tool: actions for tool, actions in out.items() if actions}


def flat_actions(obs: CraftingObservation, rng: Any) -> list[Action]:
    """AgentWorld's random agent's candidates (`RandomAgentPolicy._build_candidates`), one flat
    list: one move (upstream: a random tile within 8; here: a random site on the agent's map), a
    harvest of every visible node and an attack on every visible living mob (visible, not
    necessarily possible), an equip of every equippable held item, sleep, and with communication a
    chat and one transfer of a random held item to a random visible agent. It never crafts, eats,
    requests, trades, explores or completes."""
    cat = task_catalog(get_task(obs.task))
    known = set(obs.known)
    sites = [s for s in sorted(cat.sites) if s != obs.site and (s not in cat.hidden or s in known)]
    held = sorted(i for i, n in obs.inventory.items() if n > 0)
    out: list[Action] = []
    if sites:
        out.append({"tool": "move_to", "site": sites[int(rng.integers(len(sites)))]})
    out += [{"tool": "harvest", "node": node} for node, _, _, _ in obs.nodes]
    out += [{"tool": "attack", "mob": m} for m, _, health, _ in obs.mobs if health > 0]
    out += [{"tool": "equip", "item": i} for i in held if cat.items.get(i) == "tool" or i in WEAPONS or i in ARMOR]
    out.append({"tool": "sleep"})
    if not cuts_communication(obs.condition):
        out.append({"tool": "chat", "message": "hello team"})
        if obs.here and held:
            to = obs.here[int(rng.integers(len(obs.here)))]
            out.append({"tool": "transfer", "item": held[int(rng.integers(len(held)))], "qty": 1, "to": to})
    if has(obs.condition, "discussion"):  # upstream's discussion rounds offer only chat
        out = [a for a in out if a["tool"] in DISCUSSION_TOOLS]
    return out


def random_legal_action(obs: CraftingObservation, rng: Any) -> Action:
    """In AgentWorld's tasks, uniform over its random agent's flat list (`flat_actions`); in ours,
    uniform over the tools with a legal action, then uniform over that tool's actions."""
    if get_task(obs.task).from_agentworld:
        candidates = flat_actions(obs, rng)
        return candidates[int(rng.integers(len(candidates)))]
    table = legal_actions(obs)
    tools = sorted(table)
    actions = table[tools[int(rng.integers(len(tools)))]]
    return actions[int(rng.integers(len(actions)))]
