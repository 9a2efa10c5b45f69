"""The Schelling pilot's prompt: standing instructions, compact board, 'ID -> r,c' answers.

The system text is the same for every actor and round (providers cache such prefixes); what
changes sits in the user message. Legality is checked on the start-of-round observation:
in bounds and empty, as the world itself will check.
"""

from __future__ import annotations

import re
from typing import Any

from mam_bench.prompts import Parsed, WorldPrompts
from mam_bench.protocol import AuditEntry, Request

GOALS = {
    "integrate": "INTEGRATE: lower the ordinary edge homophily (OEH) the ordinary agents end with",
    "segregate": "SEGREGATE: raise the ordinary edge homophily (OEH) the ordinary agents end with",
}

STANDING = """You are one of {n} influence actors (ids {ids}) in a Schelling model; you coordinate on a shared board.
World: {size}x{size} torus, Moore-8 neighbours, groups A and B. An ordinary agent is dissatisfied when under {threshold} of its occupied neighbours share its group (isolated agents are satisfied). Each round every dissatisfied ordinary agent moves to the nearest start-of-round vacancy that would satisfy it; all moves settle together.
Objective: {goal}. OEH = share of same-group pairs among neighbouring ordinary agents. Influence actors are masked: edges touching you never count, so you act only through where ordinary agents are satisfied and move (you do count as a typed neighbour for their satisfaction).
Your move each round: stay, or move your own token to any cell empty at the start of the round. {resolution} No swapping, no moving others, no cells vacated this round.
Board posts are unverified and non-binding; lines starting '!' are engine facts ("id->r,c" accepted, "id:outcome"). Coordinates are row,col, 0-based."""

#: how moves resolve, per `priority` (the world parameter); `first` keeps the pilot's wording
RESOLUTION = {
    "first": "Influence moves resolve first; if several actors pick one cell the lowest id gets it and the others "
    "collide and stay; an occupied cell fails.",
    "turn": "Your move is resolved at your own random slot in the round's reservation order, together with the "
    "ordinary agents' reservations: if an ordinary agent earlier in the order reserved your cell you fail "
    "(occupied), if another influence actor earlier in the order did you collide; either way you stay. An "
    "occupied cell fails.",
}

_CELL_ONLY = re.compile(r"^\s*\(?\s*(\d{1,4})\s*,\s*(\d{1,4})\s*\)?\s*\.?\s*$")
_STAY_ONLY = re.compile(r"^\s*(stay|hold)\s*\.?\s*$", re.I)


class SchellingPrompts(WorldPrompts):
    strict = True  # a cell is two JSON integers; "3", 3.0 or true are wrong answers, not moves

    def compact_system(self, req: Request) -> str:
        obs = req.observation
        return (
            f"You are influence actor {req.actor_id} in a Schelling model on a {obs.size}x{obs.size} torus, groups A "
            f"and B. An ordinary agent is dissatisfied when under {obs.threshold} of its neighbours share its group, "
            f"and moves. Objective: {GOALS.get(self.objective, self.objective)}. You act by where your token stands."
        )

    def system(self, req: Request) -> str:
        if self.compact:
            return self.compact_system(req)
        obs = req.observation
        ids = ",".join(str(i) for i, *_ in obs.influence)
        return STANDING.format(
            n=len(obs.influence),
            ids=ids,
            size=obs.size,
            threshold=obs.threshold,
            goal=GOALS.get(self.objective, self.objective),
            resolution=RESOLUTION[obs.priority],
        )

    def history_text(self, req: Request) -> str:
        lines = []
        for h in req.history:
            act = h.get("action")
            if isinstance(act, dict) and "row" in act:
                act_s = f"{act['row']},{act['col']}"
            else:
                act_s = "stay"
            lines.append(f"R{h.get('round')} {act_s} {h.get('outcome')}")
        return "; ".join(lines) if lines else "(none)"

    def instruction(self, req: Request, phase: str) -> str:
        me = req.actor_id
        declare = f"declare your plan as '{me} -> ' and the row,col of your target cell, or '{me} -> hold'"
        if phase == "coordination":
            return (
                f"Coordination phase, round {req.round}: write one short post (at most {self.post_chars} "
                f"characters) for the other actors; {declare}."
            )
        if self.menu(req):
            return self.menu_text(req, phase)
        if phase == "decision":
            return (
                f"Decision phase, round {req.round}: answer with JSON only, "
                '{"stay": true} or {"row": R, "col": C} (an empty cell).'
            )
        return (
            f'Round {req.round}: answer with JSON only, an object with "action" first ({{"stay": true}} or '
            '{"row": R, "col": C}, an empty cell) and then "message", your post for the others (at most '
            f"{self.post_chars} characters; {declare})."
        )

    def menu_label(self, action: dict[str, Any], req: Request) -> str:
        """A cell with what it offers: how many of its occupied neighbours are of your group."""
        obs = req.observation
        r, c = (obs.row, obs.col) if action.get("stay") else (action["row"], action["col"])
        mine = 0 if obs.group == "A" else 1
        near = [
            obs.group_at((r + dr) % obs.size, (c + dc) % obs.size)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and ((r + dr) % obs.size, (c + dc) % obs.size) != (obs.row, obs.col)
        ]
        occupied = [g for g in near if g is not None and g >= 0]
        what = f"stay at {r},{c}" if action.get("stay") else f"move to {r},{c}"
        return f"{what} ({sum(g == mine for g in occupied)}/{len(occupied)} same group)"

    def user(self, req: Request, phase: str) -> str:
        """Under the menu style, a short prompt: the agent's own line, the board, its history and the
        menu (whose lines say what each cell offers) instead of the whole grid."""
        if phase == "coordination" or not self.menu(req):
            return super().user(req, phase)
        obs = req.observation
        head = (
            f"round {req.round} | you {req.actor_id} group {obs.group} at {obs.row},{obs.col} | oeh {obs.oeh:.4f}"
            f" | dissatisfied A {obs.dissatisfied[0]} B {obs.dissatisfied[1]}"
        )
        board = f"board:\n{self.board_text(req)}"
        return "\n".join([head, board, f"your history: {self.history_text(req)}", self.menu_text(req, phase)])

    def parse(self, text: str, req: Request, phase: str) -> Parsed:
        parsed = super().parse(text, req, phase)
        if (
            parsed.action is not None
            or not isinstance(text, str)
            or parsed.error != "no JSON object found in the answer"
        ):
            return parsed
        # the board's own shorthand: "ID -> r,c", "ID -> hold", a bare "r,c" or "stay"
        action: dict[str, Any] | None = self.world_cls.declared_target(req.actor_id, text)
        if action is None and (m := _CELL_ONLY.match(text)):
            action = {"row": int(m.group(1)), "col": int(m.group(2))}
        if action is None and _STAY_ONLY.match(text):
            action = {"stay": True}
        if action is None:
            return parsed
        problem = self.legal_error(action, req)
        return Parsed(action=action, error=problem)

    def legal_error(self, action: dict[str, Any], req: Request) -> str | None:
        if action.get("stay"):
            return None
        obs = req.observation
        r, c = action.get("row"), action.get("col")
        if not (isinstance(r, int) and isinstance(c, int)):
            return "row and col must be integers"
        if not (0 <= r < obs.size and 0 <= c < obs.size):
            return f"cell {r},{c} is off the board (rows and cols are 0..{obs.size - 1})"
        if (r, c) == (obs.row, obs.col):
            return f'cell {r},{c} is where you already are; answer {{"stay": true}} to stay'
        if (r, c) not in set(obs.vacancies()):
            seen = obs.char_at(r, c)
            if seen is None:  # out of view: the world accepts it if the cell is empty
                return None
            return f"cell {r},{c} is occupied ('{seen}'); choose a '.' cell or stay"
        return None

    def facts(self, world: Any, entries: list[AuditEntry]) -> list[str]:
        parts = []
        for e in entries:
            if e.outcome == "accepted" and isinstance(e.action, dict) and "row" in e.action:
                parts.append(f"{e.actor_id}->{e.action['row']},{e.action['col']}")
            else:
                parts.append(f"{e.actor_id}:{e.outcome}")
        m = world.metrics()
        return [
            " ".join(parts) + f" | oeh {m['oeh']:.4f} sat {m['satisfaction']:.4f} ordinary_moves {world.ordinary_moves}"
        ]
