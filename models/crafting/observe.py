"""What an influence agent sees (AgentWorld's blackbox rule): its own state, what is at its site,
chat addressed to it or broadcast, and requests addressed to it. Structured, and as compact text
that parses back (`from_text`); `prompt_text` wraps it in AgentWorld's E.1/E.2 prompt.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from mam_bench.models.crafting.catalog import task_catalog
from mam_bench.models.crafting.conditions import (
    COMMUNICATION_TOOLS,
    DISCUSSION_TOOLS,
    NO_ROLES_LINE,
    cuts_communication,
    has,
    oracle_agent,
)
from mam_bench.models.crafting.tasks import get_task

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld

CHAT_ROUNDS = 3


class CraftingObservation(BaseModel):
    model_config = ConfigDict(frozen=True)

    task: str
    round: int
    budget: int
    actor_id: int
    username: str
    role: str
    site: str
    skills: dict[str, int]
    inventory: dict[str, int]
    equipment: list[str]
    nodes: list[tuple[str, str, int, str]]  # node, resource, stock, tool ('-' = none)
    stations: list[str]
    here: list[int]
    owed: list[tuple[str, int, int]]  # item, outstanding, to
    requests: list[tuple[int, int, str, int, int]]  # request id, from, item, qty, recipient
    team: list[tuple[int, str, str]]  # id, username, role
    last: str
    chat: list[tuple[int, int, int, str]]  # round, from, to (-1 = everyone), text
    health: int = 20
    mobs: list[tuple[str, str, int, int]] = []  # mob, kind, health (0 = down), damage: at this site
    known: list[str] = []  # hidden sites this agent has found (or been told of)
    offers: list[tuple[int, int, str, int, str, int]] = []  # offer id, from, item, qty, want, want_qty
    condition: str = "standard"  # AgentWorld's baseline or ablation this run plays (conditions.py)
    trips: list[tuple[str, int]] = []  # site on this agent's map, move_to actions it takes from here

    # --- compact text -----------------------------------------------------------------------
    def to_text(self) -> str:
        def kv(d: dict[str, int]) -> str:
            return " ".join(f"{k}={v}" for k, v in d.items()) or "-"

        lines = [
            f"crafting {self.task} R{self.round}/{self.budget} me={self.actor_id} {self.username} "
            f"({self.role}) at {self.site}" + ("" if self.condition == "standard" else f" cond={self.condition}"),
            f"skills {kv(self.skills)}",
            f"inv {kv(self.inventory)}",
            f"eq {' '.join(self.equipment) or '-'}",
            f"nodes {' '.join(f'{n}:{r}={s}/{t}' for n, r, s, t in self.nodes) or '-'}",
            f"stations {' '.join(self.stations) or '-'}",
            f"hp {self.health}",
            f"mobs {' '.join(f'{m}:{k}={h}/{d}' for m, k, h, d in self.mobs) or '-'}",
            f"known {' '.join(self.known) or '-'}",
            f"trips {' '.join(f'{site}={n}' for site, n in self.trips) or '-'}",
            f"offers {' '.join(f'#{i}:{f}>{it}={q}>{w}={wq}' for i, f, it, q, w, wq in self.offers) or '-'}",
            f"here {' '.join(map(str, self.here)) or '-'}",
            f"owed {' '.join(f'{i}={q}>{t}' for i, q, t in self.owed) or '-'}",
            f"req {' '.join(f'#{r}:{f}>{i}={q}>{to}' for r, f, i, q, to in self.requests) or '-'}",
            f"team {' '.join(f'{i}:{u}:{r}' for i, u, r in self.team)}",
            f"last {self.last or '-'}",
        ]
        lines += [f"chat R{r} {f}>{'*' if to < 0 else to}: {text}" for r, f, to, text in self.chat]
        return "\n".join(lines)

    @classmethod
    def from_text(cls, text: str) -> CraftingObservation:
        lines = text.split("\n")
        head = re.match(r"crafting (\S+) R(\d+)/(\d+) me=(\d+) (\S+) \((\S+)\) at (\S+)(?: cond=(\S+))?$", lines[0])
        assert head, lines[0]
        f: dict[str, str] = {}
        chat = []
        for line in lines[1:]:
            key, _, rest = line.partition(" ")
            if key == "chat":
                m = re.match(r"R(\d+) (\d+)>(\*|\d+): (.*)$", rest)
                assert m, line
                chat.append((int(m[1]), int(m[2]), -1 if m[3] == "*" else int(m[3]), m[4]))
            else:
                f[key] = rest

        def items(s: str) -> list[str]:
            return [] if s == "-" else s.split(" ")

        def kv(s: str) -> dict[str, int]:
            return {k: int(v) for k, v in (x.split("=") for x in items(s))}

        nodes = []
        for x in items(f["nodes"]):
            m = re.match(r"(\w+):(\w+)=(\d+)/(\S+)$", x)
            nodes.append((m[1], m[2], int(m[3]), m[4]))
        owed = [(m[1], int(m[2]), int(m[3])) for m in (re.match(r"(\w+)=(\d+)>(\d+)$", x) for x in items(f["owed"]))]
        reqs = [
            (int(m[1]), int(m[2]), m[3], int(m[4]), int(m[5]))
            for m in (re.match(r"#(\d+):(\d+)>(\w+)=(\d+)>(\d+)$", x) for x in items(f["req"]))
        ]
        team = [(int(i), u, r) for i, u, r in (x.split(":") for x in items(f["team"]))]
        mobs = [
            (m[1], m[2], int(m[3]), int(m[4]))
            for m in (re.match(r"(\w+):(\w+)=(\d+)/(\d+)$", x) for x in items(f["mobs"]))
        ]
        offers = [
            (int(m[1]), int(m[2]), m[3], int(m[4]), m[5], int(m[6]))
            for m in (re.match(r"#(\d+):(\d+)>(\w+)=(\d+)>(\w+)=(\d+)$", x) for x in items(f["offers"]))
        ]
        return cls(
            task=head[1],
            round=int(head[2]),
            budget=int(head[3]),
            actor_id=int(head[4]),
            username=head[5],
            role=head[6],
            site=head[7],
            skills=kv(f["skills"]),
            inventory=kv(f["inv"]),
            equipment=items(f["eq"]),
            nodes=nodes,
            stations=items(f["stations"]),
            here=[int(x) for x in items(f["here"])],
            owed=owed,
            requests=reqs,
            team=team,
            last="" if f["last"] == "-" else f["last"],
            chat=chat,
            health=int(f["hp"]),
            mobs=mobs,
            known=items(f["known"]),
            trips=[(site, int(n)) for site, n in (x.split("=") for x in items(f.get("trips", "-")))],
            offers=offers,
            condition=head[8] or "standard",
        )

    # --- prompts ------------------------------------------------------------------------------
    def prompt_text(self) -> str:
        """AgentWorld E.1 (system) and E.2 (user) prompts with this observation and chat."""
        return self.system_prompt() + "\n\n" + self.user_prompt()

    def system_prompt(self) -> str:
        """AgentWorld E.1: the one-tool rule, the tools, then the observation and chat blocks."""
        names = {i: u for i, u, _ in self.team}

        def to_whom(to: int) -> str:
            return "" if to < 0 else " to you" if to == self.actor_id else f" to {names.get(to, f'agent {to}')}"

        chat = "\n".join(f"R{r} {names.get(f, f'agent {f}')}{to_whom(to)}: {t}" for r, f, to, t in self.chat)
        agentworld = get_task(self.task).from_agentworld
        tools = [
            line.replace("(same site only)", "(any distance)") if agentworld else line
            for line in (TOOL_LINES + AGENTWORLD_TOOL_LINES if agentworld else TOOL_LINES)
            if not (cuts_communication(self.condition) and _tool_of(line) in COMMUNICATION_TOOLS)
            and (_tool_of(line) in DISCUSSION_TOOLS or not has(self.condition, "discussion"))
        ]
        return "\n".join(
            [
                "You are an intelligent AI agent that plays the AgentWorld MMORPG game (crafting economy).",
                "CRITICAL RESPONSE RULE: You MUST call exactly ONE tool function in every response, written as a",
                'single JSON object such as {"tool": "harvest", "node": "ore1"}. Be decisive; use sleep only when',
                "waiting serves a purpose."
                + (" Chat and requests use up your turn." if not cuts_communication(self.condition) else ""),
                "TOOLS:",
                *tools,
                "=== CURRENT ENVIRONMENT OBSERVATION ===",
                self.to_text(),
                "=== END OBSERVATION ===",
                "=== CHAT HISTORY ===",
                chat or "(none)",
                "=== END CHAT HISTORY ===",
            ]
        )

    def user_prompt(self) -> str:
        """AgentWorld E.2: task, description, objectives, relevant context, team information."""
        task = get_task(self.task)
        others = ", ".join(f"{u} (id {i}, {r})" for i, u, r in self.team if i != self.actor_id) or "(none visible)"
        lines = [
            f"**Task:** {task.name} **Description:** {task.description}",
            f"**Primary Objective:** {task.objective}",
            "**Secondary Objectives:** " + " ".join(f"- {c.name} ({c.qty})" for c in task.checkpoints),
        ]
        if not has(self.condition, "no_docs"):
            lines.append(f"**Relevant Context:** {relevant_context(task.name)}")
        if has(self.condition, "shared_plan_only"):
            lines.append(f"**Shared Plan:** {task.shared_plan or relevant_context(task.name)}")
        lines.append(
            f"**Team Information:** - Total agents in party: {len(self.team)} - Your username: "
            f"{self.username} (id {self.actor_id}) - Other team members: {others}"
        )
        if has(self.condition, "no_roles"):
            lines.append(NO_ROLES_LINE)
        return "\n".join(lines)

    def legal_menu(self) -> list[dict[str, Any]]:
        """Every legal action this observation shows, sleep first: the menu a person picks from in
        the dashboard (the LLM prompts list the tools instead, `TOOL_LINES`)."""
        from mam_bench.models.crafting.legal import legal_actions

        return [a for actions in legal_actions(self).values() for a in actions]

    # --- the random controller's draw -----------------------------------------------------------
    def random_action(self, rng: Any) -> dict[str, Any]:
        from mam_bench.models.crafting.legal import random_legal_action

        return random_legal_action(self, rng)


TOOL_LINES = [
    '- {"tool": "move_to", "site": SITE}  (one action per step; "trips" says how many each site takes from here)',
    '- {"tool": "harvest", "node": NODE}  (a node at your site; needs the skill and tool)',
    '- {"tool": "craft", "item": ITEM, "skill": SKILL}  (at the recipe station, holding the inputs)',
    '- {"tool": "transfer", "item": ITEM, "qty": N, "to": AGENT_ID}  (same site only)',
    '- {"tool": "chat", "message": TEXT, "to": AGENT_ID or null}  (null: whole team)',
    '- {"tool": "request", "item": ITEM, "qty": N, "to": AGENT_ID or null, "recipient": AGENT_ID or null}'
    "  (to null: an open order to everyone)",
    '- {"tool": "equip", "item": TOOL}',
    '- {"tool": "sleep"}',
    '- {"tool": "attack", "mob": MOB}  (a mob at your site; needs strength; it strikes back)',
    '- {"tool": "eat", "item": FOOD}  (restores health; the only action left when health is 0)',
    '- {"tool": "explore"}  (search near your site for a hidden site; it may take several tries)',
    '- {"tool": "offer_trade", "item": ITEM, "qty": N, "want": ITEM, "want_qty": N, "to": AGENT_ID or null}',
    '- {"tool": "accept_trade", "offer": OFFER_ID}  (same site as the offerer; both sides swap at once)',
]

#: AgentWorld's own tools, listed only in its tasks (agentworld/tools.py)
AGENTWORLD_TOOL_LINES = [
    '- {"tool": "observe"}  (what is at your site now; uses your turn)',
    '- {"tool": "verify_inventory", "items": [ITEM, ...]}  (which of these you hold; uses your turn)',
    '- {"tool": "complete", "message": TEXT}  (you are done: you go offline for the rest of the episode)',
]


def _tool_of(line: str) -> str:
    """The tool a TOOL_LINES entry describes."""
    return line.partition('"tool": "')[2].partition('"')[0]


def relevant_context(task_name: str) -> str:
    """The task's context document: recipes of its target tree, where nodes and stations are."""
    task = get_task(task_name)
    cat = task_catalog(task)
    tree: set[str] = set()
    todo = [t.item for t in task.targets]
    while todo:
        item = todo.pop()
        if item in tree:
            continue
        tree.add(item)
        r = cat.recipes.get(item)
        if r:
            todo.extend(r.inputs)
        elif cat.items[item] == "raw":
            tool = cat.raw_nodes(item)[0].tool
            if tool and tool in cat.recipes:
                todo.append(tool)
        elif cat.items[item] == "loot":
            tree.add(item)
    parts = []
    for item in sorted(tree):
        r = cat.recipes.get(item)
        if r:
            ins = " + ".join(f"{k} {i}" for i, k in r.inputs.items())
            level = f" level {r.level}" if r.level > 1 else ""
            parts.append(f"{r.qty} {item} = {ins} ({r.skill}{level} at {r.station})")
        elif cat.items[item] == "raw":
            n = cat.raw_nodes(item)
            level = f" level {n[0].level}" if n[0].level > 1 else ""
            parts.append(f"{item}: harvest at {n[0].site} ({n[0].skill}{level}, tool {n[0].tool or 'none'})")
    for m in sorted({(m.kind, m.site, m.health, m.damage, m.loot) for m in cat.mobs.values() if m.loot in tree}):
        parts.append(f"{m[0]} at {m[1]}: health {m[2]}, damage {m[3]}, drops {m[4]}")
    hidden = set(task.survey) | {n.site for n in cat.nodes.values() if n.resource in tree}
    hidden |= {m.site for m in cat.mobs.values() if m.loot in tree}
    for site in sorted(hidden & set(cat.hidden)):
        parts.append(f"{site} lies hidden near {cat.hidden[site]} (explore there)")
    if task.hunger:
        parts.append(f"hunger: -{task.hunger} health per round; food restores it")
    parts.append("stations: " + ", ".join(f"{s} at {site}" for s, site in cat.stations.items()))
    return "; ".join(parts)


def observe_agent(world: CraftingWorld, actor_id: int) -> CraftingObservation:
    a = world.actors[actor_id]
    cat = world.cat
    condition = world.condition_now
    alone = cuts_communication(condition)  # no other agent, message, request or offer is visible
    oracle = has(condition, "oracle_communication") and actor_id == oracle_agent(world.task, cat)
    nodes = [
        (n.node_id, n.resource, world.stock[n.node_id], n.tool or "-")
        for n in sorted(cat.nodes.values(), key=lambda n: n.node_id)
        if n.site == a.site
    ]
    chat = [
        (c["round"], c["frm"], -1 if c["to"] is None else c["to"], c["text"])
        for c in world.chats
        if c["frm"] != actor_id and (oracle or c["to"] in (None, actor_id)) and c["round"] >= world.round - CHAT_ROUNDS
    ]
    if has(condition, "no_roles"):
        names = {b.actor_id: (f"Agent_{b.actor_id + 1}", "agent") for b in world.actors}
    else:
        names = {b.actor_id: (b.username, b.role) for b in world.actors}
    team = [(b.actor_id, *names[b.actor_id]) for b in world.actors if not alone or b.actor_id == actor_id]
    return CraftingObservation(
        task=world.task.name,
        round=world.round,
        budget=world.budget,
        actor_id=actor_id,
        username=names[actor_id][0],
        role=names[actor_id][1],
        site=a.site or "en_route",
        skills=dict(a.skills),
        inventory=a.inventory(),
        equipment=sorted(a.equipment),
        nodes=nodes,
        stations=sorted(s for s, site in cat.stations.items() if site == a.site),
        here=[]
        if alone
        else [b.actor_id for b in world.actors if b.actor_id != actor_id and world.colocated(actor_id, b.actor_id)],
        owed=[(o.item, o.outstanding, o.to) for o in a.ordered_obligations() if o.outstanding > 0],
        requests=[
            (r["id"], r["frm"], r["item"], r["qty"], r["recipient"])
            for r in world.requests
            if r["to"] == actor_id and r["status"] == "pending" and not alone
        ],
        team=team,
        last=world.last_outcome.get(actor_id, ""),
        chat=[] if alone else chat,
        health=world.health[actor_id],
        mobs=[
            (m.mob_id, m.kind, world.mob_health[m.mob_id], m.damage)
            for m in sorted(cat.mobs.values(), key=lambda m: m.mob_id)
            if m.site == a.site
        ],
        known=sorted(a.known),
        offers=[
            (o["id"], o["frm"], o["item"], o["qty"], o["want"], o["want_qty"])
            for o in world.offers.values()
            if o["status"] == "open" and o["frm"] != actor_id and o["to"] in (None, actor_id) and not alone
        ],
        condition=condition,
        trips=trips(world, a),
    )


def trips(world: CraftingWorld, a: Any) -> list[tuple[str, int]]:
    """How many move_to actions each site on the agent's map takes from where it stands: one under
    abstracted travel, else the Chebyshev distance over `speed` cells per action, rounded up."""
    out = []
    for site, (tx, ty) in sorted(world.cat.sites.items()):
        if site == a.site or (site in world.cat.hidden and site not in a.known):
            continue
        if world.params.travel == "abstracted":
            out.append((site, 1))
        else:
            x, y = a.xy
            out.append((site, max(1, -(-max(abs(tx - x), abs(ty - y)) // world.params.speed))))
    return out
