"""The Civil Violence cascade's prompts: standing rules per role, the local view as JSON, and the
legality of a destination or an arrest checked on the observation the world will check it on.

The standing text is the same for every actor and step of a run (providers cache such prefixes)."""

from __future__ import annotations

from typing import Any

from mam_bench.prompts import WorldPrompts, json_object
from mam_bench.protocol import AuditEntry, Request

GOALS = {
    "increase": "INCREASE participation: the share of ordinary citizens who are active or jailed when your world stops",
    "decrease": "DECREASE participation: the share of ordinary citizens who are active or jailed when your world stops",
}

STANDING = """You are influence agent {me}, a {role}, one of the influence agents in a Civil Violence model on a {size}x{size} torus (one agent per cell, Moore neighbours). You coordinate on a shared board.
Objective: {goal}. Influence agents never count themselves. A world stops after step {max_steps}, or earlier once at least 95% of ordinary citizens participate (a revolution).
Each step: first the citizens act, then the police. Within a phase everybody sees the board as it was at the phase's start; actions are claimed one at a time in the phase's order ({order}) and settle together at its end. Destinations are cells empty at the phase's start that nobody claimed earlier (vacated cells open only next phase).
Ordinary citizens (vision {vision}): A = 1 + active citizens in sight, I = 1 + quiet citizens in sight, C = police in sight; a citizen turns active when sigmoid(-private preference + A*A/I - threshold) - (1 - exp(-2.3*C/A)) exceeds a uniform draw, and steps to a random adjacent free cell. Ordinary police step to a random adjacent free cell, then arrest a random active citizen adjacent to where they stand. Arrested citizens leave the board for a random term (they still participate) and come back quiet at the start of a citizen phase.
{role_rules}
Board posts are unverified; lines starting '!' are engine facts. Coordinates are row,col, 0-based."""

ROLE_RULES = {
    "citizen": "Your turn (citizen phase): set active true or false and optionally move to ANY free cell (row, col), even far away. "
    "While jailed your turn is for the board only: answer {}.",
    "police": "Your turn (police phase, after citizens settled): optionally move to ANY free cell (row, col), and optionally arrest "
    "(target_row, target_col): an active citizen not yet claimed, adjacent to where you end up. Arresting does not lower "
    "participation by itself: jailed citizens count.",
}

ORDER = {
    "first": "influence agents' claims come before every ordinary agent's",
    "turn": "one seeded order of everybody; no claim is privileged",
}


def _cell(size: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": size - 1}


class CascadePrompts(WorldPrompts):
    strict = True  # coordinates are JSON integers, activity a JSON boolean

    def request_action_schema(self, req: Request) -> dict[str, Any]:
        """The role's own action, with its pairs whole: a schema-valid answer is one the world
        reads (the merged schema let `row` come without `col`). A jailed agent answers {}."""
        obs = req.observation
        if obs.location is None:
            return json_object({}, [])
        cell = _cell(obs.size)
        move = {"row": cell, "col": cell}
        if obs.role == "citizen":
            active = {"active": {"type": "boolean"}}
            return {
                "anyOf": [json_object(active, ["active"]), json_object({**active, **move}, ["active", "row", "col"])]
            }
        arrest = {"target_row": cell, "target_col": cell}
        return {
            "anyOf": [
                json_object({}, []),
                json_object(move, ["row", "col"]),
                json_object(arrest, ["target_row", "target_col"]),
                json_object({**move, **arrest}, ["row", "col", "target_row", "target_col"]),
            ]
        }

    def system(self, req: Request) -> str:
        obs = req.observation
        return STANDING.format(
            me=req.actor_id,
            role=obs.role,
            size=obs.size,
            goal=GOALS.get(self.objective, self.objective),
            max_steps=obs.max_steps,
            order=ORDER[obs.priority],
            vision=obs.vision,
            role_rules=ROLE_RULES[obs.role],
        )

    def instruction(self, req: Request, phase: str) -> str:
        obs = req.observation
        now = f"Participation now {obs.participation:.4f}."
        if obs.location is None:
            now += f" You are in jail for {obs.jail_remaining} more step(s) after this one."
        if phase == "coordination":
            return f"{now} Coordination, step {req.round}: write one short post (at most {self.post_chars} characters)."
        if obs.role == "citizen":
            shape = '{"active": true|false, "row": R, "col": C} (leave out row and col to stay)'
        else:
            shape = (
                '{"row": R, "col": C, "target_row": R2, "target_col": C2} (leave out a pair to stay or make no arrest)'
            )
        if phase == "decision":
            return f"{now} Step {req.round}: answer with JSON only: {shape}."
        return (
            f'{now} Step {req.round}: answer with JSON only, "action" first: {shape}, then "message": your post '
            f"for the others (at most {self.post_chars} characters)."
        )

    def legal_error(self, action: dict[str, Any], req: Request) -> str | None:
        obs = req.observation
        if obs.location is None:
            return None if not action else "you are in jail: answer {}"
        dest = (action["row"], action["col"]) if "row" in action else None
        if dest is not None and dest not in set(obs.vacancies):
            return f"cell {dest[0]},{dest[1]} is not free (empty at the phase's start and unclaimed)"
        if obs.role == "citizen":
            return "citizens do not arrest" if "target_row" in action else None
        if "active" in action:
            return "police have no activity"
        if "target_row" not in action:
            return None
        target = (action["target_row"], action["target_col"])
        if dest is None and target not in set(obs.targets):
            return f"no unclaimed active citizen adjacent to you at {target[0]},{target[1]}"
        return None

    def facts(self, world: Any, entries: list[AuditEntry]) -> list[str]:
        parts = []
        for e in entries:
            act = e.action if isinstance(e.action, dict) else {}
            where = f"->{act['row']},{act['col']}" if "row" in act else ""
            arrest = f" arrest {act['target_row']},{act['target_col']}" if "target_row" in act else ""
            stance = {True: " active", False: " quiet"}.get(act.get("active"), "")
            parts.append(f"{e.actor_id}:{e.outcome}{where}{stance}{arrest}")
        m = world.metrics()
        return [" ".join(parts) + f" | participation {m['participation']:.4f}"]
