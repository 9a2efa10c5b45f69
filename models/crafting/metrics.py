"""Outcome metrics: progress, SR, PSR, target units, and exact Causal Collaboration Effectiveness.

progress_all = mean over rounds t = 1..budget of PSR(t), the PSR at the end of
round t, with the last state held for the rounds a run did not play (it stopped on success, so
those count as PSR 1). It is the area under the PSR curve, in [0, 1]: more output and earlier
success both raise it, and it is defined at the final round of a run that ended early, so the
finals of a treatment and a reference that stopped at different rounds compare. Unlike PSR it
does not saturate when the rule already succeeds within the budget. `progress` (the primary
metric) is the same area over own work only (`states.own_state`): units made or delivered
by the influence agents do not count, in the treatment and, for the same agents, in the reference,
so an influence agent cannot score by doing the job itself.

CCE (AgentWorld F.1) = |C| / |T|, C = success actions plus all their causal ancestors, T = every
action. Our edges are mechanical (item provenance FIFO, transfers, the last move before a located
action, equips, request -> fulfilling transfer) plus one chat rule: a chat x enables a later
action y by another agent within 3 rounds whose item, site, node or agent the chat names; so a
chat counts when a later contributing action answers it. A failed task scores CCE 0.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting import states
from mam_bench.models.crafting.catalog import catalog
from mam_bench.models.crafting.tasks import Task, psr

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld

CHAT_WINDOW = 3


def _keys(y: dict[str, Any], usernames: dict[int, str]) -> set[str]:
    cat = catalog()
    args = y.get("args", {})
    keys = {usernames.get(y["agent"], ""), y.get("site", "")}
    for k in ("item", "site", "node"):
        if isinstance(args.get(k), str):
            keys.add(args[k])
    node = cat.nodes.get(args.get("node", ""))
    if node is not None:
        keys.add(node.resource)
    return {k.lower() for k in keys if k}


def chat_edges(actions: list[dict[str, Any]], usernames: dict[int, str]) -> list[tuple[int, int]]:
    """Heuristic chat edges (x, y): y by another agent, within 3 rounds, named by the chat."""
    edges = []
    chats = [x for x in actions if x["tool"] == "chat" and x.get("ok", True)]
    for x in chats:
        words = set(re.findall(r"[a-z0-9_]+", x["args"].get("message", "").lower()))
        for y in actions:
            if y["id"] <= x["id"] or y["agent"] == x["agent"] or y["tool"] == "chat":
                continue
            if y["round"] - x["round"] > CHAT_WINDOW:
                break
            if words & _keys(y, usernames):
                edges.append((x["id"], y["id"]))
    return edges


def contributing(
    actions: list[dict[str, Any]], success: Iterable[int], extra_edges: Iterable[tuple[int, int]] = ()
) -> set[int]:
    """C = S plus every ancestor of S in the causal action graph."""
    parents: dict[int, set[int]] = {a["id"]: set(a.get("parents", ())) for a in actions}
    for x, y in extra_edges:
        parents.setdefault(y, set()).add(x)
    seen = set(success)
    frontier = list(seen)
    while frontier:
        y = frontier.pop()
        for x in parents.get(y, ()):
            if x not in seen:
                seen.add(x)
                frontier.append(x)
    return seen


def cce(
    actions: list[dict[str, Any]], success: Iterable[int], succeeded: bool, edges: Iterable[tuple[int, int]] = ()
) -> dict[str, Any]:
    """CCE with chat, CCE without chat (chat left out of C and T), and PAC per agent."""
    agents = sorted({a["agent"] for a in actions})
    if not succeeded or not actions:
        return {"cce": 0.0, "cce_no_chat": 0.0, "pac": {i: 0.0 for i in agents}, "contributing": []}
    edges = list(edges)
    c = contributing(actions, success, edges)
    c_plain = contributing(actions, success)
    plain = [a for a in actions if a["tool"] != "chat"]
    pac = {}
    for i in agents:
        mine = [a["id"] for a in actions if a["agent"] == i]
        pac[i] = sum(1 for x in mine if x in c) / len(mine)
    return {
        "cce": len(c) / len(actions),
        "cce_no_chat": (sum(1 for a in plain if a["id"] in c_plain) / len(plain)) if plain else 0.0,
        "pac": pac,
        "contributing": sorted(c),
    }


def success_actions(task: Task, world: CraftingWorld) -> set[int]:
    """S: the actions that directly achieve the checkpoints (produced or delivered counted units)."""
    cat = world.cat
    s: set[int] = set()
    for cp in task.checkpoints:
        if cp.kind == "held":
            left = cp.qty
            for h in task.holders(cp.scope):
                for src, q in world.actors[h].lots.get(cp.item, []):
                    if left <= 0:
                        break
                    if src >= 0:
                        s.add(src)
                    left -= q
        elif cp.kind in ("crafted", "harvested"):
            left = cp.qty
            for a in world.log:
                if left <= 0:
                    break
                if not a["ok"]:
                    continue
                if cp.kind == "crafted" and a["tool"] == "craft" and a["args"]["item"] == cp.item:
                    s.add(a["id"])
                    left -= cat.recipes[cp.item].qty
                elif (
                    cp.kind == "harvested"
                    and a["tool"] == "harvest"
                    and cat.nodes[a["args"]["node"]].resource == cp.item
                ):
                    s.add(a["id"])
                    left -= 1
        elif cp.kind != "at_site":
            s |= mechanic_success(task, world, cp)
        else:
            here = [h for h in task.holders(cp.scope) if world.actors[h].site == cp.site][: cp.qty]
            for h in here:
                moves = [a["id"] for a in world.log if a["agent"] == h and a["ok"] and a["tool"] == "move_to"]
                if moves:
                    s.add(moves[-1])
    return s


def mechanic_success(task: Task, world: CraftingWorld, cp: Any) -> set[int]:
    """S for the combat, survival, exploration and trade checkpoints: the killing blows, each
    living agent's last meal, the explore actions that found the site, the accepted trades."""
    ok = [a for a in world.log if a["ok"]]
    if cp.kind == "kills":
        kinds = {m.mob_id: m.kind for m in world.cat.mobs.values()}
        blows = [
            a["id"]
            for a in ok
            if a["tool"] == "attack" and a["detail"].startswith("killed") and kinds[a["args"]["mob"]] == cp.item
        ]
        return set(blows[: cp.qty])
    if cp.kind == "alive":
        out = set()
        for h in task.holders(cp.scope):
            meals = [a["id"] for a in ok if a["agent"] == h and a["tool"] == "eat"]
            if world.health[h] > 0 and meals:
                out.add(meals[-1])
        return out
    if cp.kind == "discovered":
        finds = {world.actors[h].found.get(cp.site, -1) for h in task.holders(cp.scope)}
        finds.add(world.discovered.get(cp.site, -1))
        return {f for f in finds if f >= 0}
    return {a["id"] for a in ok if a["tool"] == "accept_trade"}  # traded


def collaboration(world: CraftingWorld, judged_edges: Iterable[tuple[int, int]] | None = None) -> dict[str, Any]:
    usernames = {a.actor_id: a.username for a in world.actors}
    if judged_edges is not None:
        edges = list(judged_edges)
    elif world.params.chat_edges == "heuristic":
        edges = chat_edges(world.log, usernames)
    else:
        edges = []
    ok = world.verify()[0] == 1
    return cce(world.log, success_actions(world.task, world) if ok else set(), ok, edges)


def target_units(world: CraftingWorld) -> int:
    total = 0
    for t in world.task.targets:
        held = sum(world.actors[h].held(t.item) for h in world.task.holders(t.to))
        total += min(held, t.qty)
    return total


def current_psr(world: CraftingWorld, own: bool = False) -> float:
    return psr(world.task, states.own_state(world) if own else states.final_state(world), world.params.psr_mode)


def progress(curve: list[float], current: float, budget: int) -> float:
    """Area under the PSR curve over rounds 1..budget; rounds not (yet) played hold `current`."""
    played = curve[:budget]
    return (sum(played) + (budget - len(played)) * current) / budget


def gini(values: list[float]) -> float:
    """Gini coefficient of non-negative values (0: all equal; 0 when everyone holds nothing)."""
    xs = sorted(max(0.0, v) for v in values)
    n, total = len(xs), sum(xs)
    if n == 0 or total == 0:
        return 0.0
    return sum((2 * (i + 1) - n - 1) * x for i, x in enumerate(xs)) / (n * total)


def wealth(world: CraftingWorld, own: bool) -> list[float]:
    """Holdings at current prices (unpriced items at 1), one value per agent. `own`: the unmasked
    agents only, counting only units from their own work (`own_state`), so an influence agent
    cannot move the Gini by giving away what it made itself."""
    if not own:
        return [sum(q * world.price(i) for i, q in a.inventory().items()) for a in world.actors]
    inventories = states.own_state(world)["inventories"]
    mask = set(world.run.mask_ids)
    return [
        sum(q * world.price(i) for i, q in inventories[a.actor_id].items())
        for a in world.actors
        if a.actor_id not in mask
    ]


def economy(world: CraftingWorld) -> dict[str, float]:
    """Economy-level outcomes: wealth Gini over the ordinary agents' own work (`gini`, scored by the
    `inequality` objective) and over everyone (`gini_all`), throughput (units crafted or harvested
    per round played), price level (mean price of the items that have one) and volatility (SD of
    per-round log-price changes, pooled over items), and time to completion (the round the
    verifier first passed, else the budget + 1)."""
    played = max(1, world.round)
    units = sum(world.crafted.values()) + sum(world.harvested.values())
    moves = []
    hist = world.price_history
    for prev, cur in zip(hist, hist[1:]):
        moves += [math.log(cur[i] / prev[i]) for i in cur if i in prev]
    level = [p for p in world.prices.values()]
    done = world.round if world.run.status == "success" else world.budget + 1
    return {
        "gini": gini(wealth(world, own=True)),
        "gini_all": gini(wealth(world, own=False)),
        "throughput": units / played,
        "price_level": sum(level) / len(level) if level else 1.0,
        "price_volatility": statistics.pstdev(moves) if len(moves) > 1 else 0.0,
        "time_to_completion": float(done),
    }


def failure_tags(world: CraftingWorld) -> dict[str, int]:
    """AgentWorld-style failure modes, counted from the action log and the end state:
    idle (an agent's 3rd and later sleep in a row), stale_request (orders and requests never
    filled), duplicate_work (units harvested or crafted that nobody used and no target counts),
    role_violation (crafts or harvests of items outside the agent's role), unfulfilled_handoff
    (accepted requests still owed at the end)."""
    cat = world.cat
    idle, streak = 0, {}
    for a in world.log:
        streak[a["agent"]] = streak.get(a["agent"], 0) + 1 if a["tool"] == "sleep" else 0
        idle += streak[a["agent"]] >= 3
    stale = sum(1 for o in world.orders if o["filled"] < o["qty"])
    stale += sum(1 for r in world.requests if r["status"] == "pending")
    targets = {t.item for t in world.task.targets}
    used = {src for a in world.log for src in a["parents"]}
    duplicate = sum(
        1
        for a in world.log
        if a["ok"]
        and a["tool"] in ("harvest", "craft")
        and a["id"] not in used
        and (a["args"].get("item") or cat.nodes[a["args"]["node"]].resource) not in targets
    )
    role = 0
    for a in world.log:
        if a["ok"] and a["tool"] in ("harvest", "craft"):
            item = a["args"].get("item") or cat.nodes[a["args"]["node"]].resource
            role += item not in world.actors[a["agent"]].makes
    handoff = sum(1 for b in world.actors for o in b.obligations if o.source.startswith("request:") and o.outstanding)
    return {
        "idle": idle,
        "stale_request": stale,
        "duplicate_work": duplicate,
        "role_violation": role,
        "unfulfilled_handoff": handoff,
    }


def outcome(world: CraftingWorld) -> dict[str, float]:
    state = states.final_state(world)
    sr = world.verify()[0]
    collab = collaboration(world)
    now = psr(world.task, state, world.params.psr_mode)
    now_own = current_psr(world, own=True)
    return {
        "progress": progress(world.psr_own_curve, now_own, world.budget),
        "progress_all": progress(world.psr_curve, now, world.budget),
        "psr": now,
        "psr_own": now_own,
        "psr_binary": psr(world.task, state, "binary"),
        "sr": float(sr),
        "target_units": float(target_units(world)),
        "speed": (world.budget - world.round) / world.budget if sr else 0.0,
        "cce": collab["cce"],
        "cce_no_chat": collab["cce_no_chat"],
        "actions": float(len(world.log)),
        "chats": float(len(world.chats)),
        **economy(world),
        **{f"tag_{k}": float(v) for k, v in failure_tags(world).items()},
    }


JUDGE_PROMPT = (
    "You judge causal collaboration in a multi-agent crafting game.\n"
    "Earlier action [{x}] Round {xr}, {xa}: chat({msg!r})\n"
    "Later action [{y}] Round {yr}, {ya}: {tool}({args})\n"
    "Did the earlier chat causally enable or contribute to the later action? Be INCLUSIVE. "
    'Answer with JSON only: {{"contributes": true|false}}'
)


async def judge_chat_edges(world: CraftingWorld, chat_model: Any) -> dict[str, Any]:
    """Optional LLM judge (LangChain BaseChatModel) for chat edges; the model name is recorded.

    Candidates are the heuristic's window (later action by another agent within 3 rounds).
    Pass the returned edges to `collaboration(world, judged_edges=...)`.
    """
    from langchain_core.messages import HumanMessage  # optional dependency

    usernames = {a.actor_id: a.username for a in world.actors}
    edges = []
    for x in (a for a in world.log if a["tool"] == "chat" and a["ok"]):
        for y in world.log:
            if y["id"] <= x["id"] or y["agent"] == x["agent"] or y["tool"] == "chat":
                continue
            if y["round"] - x["round"] > CHAT_WINDOW:
                break
            prompt = JUDGE_PROMPT.format(
                x=x["id"],
                xr=x["round"],
                xa=usernames[x["agent"]],
                msg=x["args"].get("message", ""),
                y=y["id"],
                yr=y["round"],
                ya=usernames[y["agent"]],
                tool=y["tool"],
                args=y["args"],
            )
            reply = await chat_model.ainvoke([HumanMessage(content=prompt)])
            text = str(getattr(reply, "content", reply)).lower()
            if re.search(r'"contributes"\s*:\s*true', text) or text.strip().startswith("yes"):
                edges.append((x["id"], y["id"]))
    model = getattr(chat_model, "model_name", None) or getattr(chat_model, "model", None) or type(chat_model).__name__
    return {"edges": edges, "judge_model": str(model)}
