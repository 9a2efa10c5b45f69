"""The prompt and answer handling any world gets for free from its contract."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from mam_bench.answers import MAX_ANSWER_CHARS, first_json, unwrap_action
from mam_bench.board import CoordinationBoard
from mam_bench.capabilities import ActionMenu, AnswerReading, LegalActions
from mam_bench.protocol import AuditEntry, Request

#: how a request is put: the world's full prompt; a short one ending in a numbered menu of the
#: legal actions (small models); or `compact`, the menu with the world's rules cut to a line or two
#: and at most COMPACT_MENU_CAP options (a small local model: 300-400 tokens a call)
Style = Literal["full", "menu", "compact"]
#: characters of the post a menu answer may carry (a small model fills whatever room it gets);
#: a compact answer carries none: gemma-3 270M's posts in the v2 quick tier were its prompt echoed,
#: the JSON keys' names or a repeated line, and they were most of what it decoded
MENU_MESSAGE_CHARS = 100
#: options a compact menu shows unless --menu-cap says otherwise (the null action among them)
COMPACT_MENU_CAP = 8
#: the agent's own past rounds a compact prompt recalls
COMPACT_HISTORY = 3


def json_object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """An object schema whose properties come in the given order (constrained decoders keep it)."""
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def label(action: dict[str, Any]) -> str:
    """An action as a menu line: `to=7`, `action="UP"`; an unset field (the null action's) reads
    as `opinion unchanged`, never `opinion=null`."""
    return ", ".join(f"{k} unchanged" if v is None else f"{k}={json.dumps(v)}" for k, v in action.items())


def _bare(action: dict[str, Any]) -> dict[str, Any]:
    """An action without its message and its unset fields, for comparing it with a legal one."""
    return {k: v for k, v in action.items() if k != "message" and v is not None}


class Parsed(BaseModel):
    """What one answer amounts to: an action (or None) with an optional message, or an error."""

    action: dict[str, Any] | None = None
    message: str | None = None
    error: str | None = None


def validation_text(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(map(str, err.get("loc", ()))) or "action"
    return f"{loc}: {err.get('msg')}"


class WorldPrompts:
    """Prompts for one world and objective; subclasses sharpen rules, parser and legality."""

    #: strict pydantic validation (no "3" -> 3, no true -> 1); off by default since some
    #: worlds' actions take enums from strings
    strict: bool = False

    def __init__(
        self,
        world_cls: Any,
        objective: str,
        post_chars: int = 600,
        message_cap: int = 4000,
        style: Style = "full",
        menu_seed: int = 0,
        menu_cap: int | None = None,
    ):
        self.world_cls = world_cls
        self.objective = objective
        self.post_chars = post_chars
        self.message_cap = message_cap
        self.style = style
        self.menu_seed = menu_seed
        self.menu_cap = menu_cap
        self.Action: type[BaseModel] = world_cls.Action
        self._menus: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self._legal_counts: dict[tuple[int, int], int] = {}

    # --- schemas ------------------------------------------------------------------------------
    def action_schema(self) -> dict[str, Any]:
        cache = self.__dict__.setdefault("_schemas", {})
        if "action" not in cache:
            cache["action"] = self.Action.model_json_schema()
        return cache["action"]

    def legal_actions(self, req: Request) -> list[dict[str, Any]] | None:
        """Every legal action of this request (None: the world does not list them)."""
        if not isinstance(self.Action, ActionMenu):
            return None
        return self.Action.legal_actions(req.observation)

    def request_action_schema(self, req: Request) -> dict[str, Any]:
        """The schema an action of this request must match: one of its legal actions where the
        world lists them, else the world's own (strict) action schema."""
        legal = self.legal_actions(req)
        return {"enum": legal} if legal else self.action_schema()

    def menu(self, req: Request) -> list[dict[str, Any]] | None:
        """Under the menu style, the request's legal actions shuffled by (menu_seed, round, actor),
        so the same request gets the same menu in a resumed run and a menu position is not an
        action's index (position bias is measured on the recorded positions). Under `menu_cap`
        the menu keeps the world's null action (listed first, by the ActionMenu contract) and the
        first cap - 1 others of the shuffle: a short prompt for a small model, at the price of
        choices it is not shown (the call's row records how many there were)."""
        if self.style == "full":
            return None
        cap = self.menu_cap if self.menu_cap is not None or self.style != "compact" else COMPACT_MENU_CAP
        key = (req.round, req.actor_id)
        if key not in self._menus:
            legal = self.legal_actions(req)
            if not legal:
                return None
            if len(self._menus) > 1024:
                self._menus.clear()
                self._legal_counts.clear()
            count = len(legal)
            draw = random.Random(f"{self.menu_seed}:{req.round}:{req.actor_id}")
            if cap is not None and len(legal) > cap:
                null, rest = legal[0], legal[1:]
                draw.shuffle(rest)
                legal = [null, *rest[: cap - 1]]
            draw.shuffle(legal)
            self._menus[key] = legal
            self._legal_counts[key] = count
        return self._menus[key]

    def answer_schema(self, phase: str, req: Request) -> dict[str, Any] | None:
        """JSON schema of this request's answer (None: free text, the coordination post): the
        action first (a small model that starts with a message never reaches it), the message
        after it and bounded."""
        if phase == "coordination":
            return None
        menu = self.menu(req)
        if menu:
            props: dict[str, Any] = {"choice": {"enum": list(range(1, len(menu) + 1))}}
            if self.posts(phase):
                props["message"] = {"type": "string", "maxLength": MENU_MESSAGE_CHARS}
            return json_object(props, list(props))
        action = self.request_action_schema(req)
        if phase == "decision":
            return action
        return json_object(
            {"action": action, "message": {"type": "string", "maxLength": self.post_chars}}, ["action", "message"]
        )

    def menu_record(self, text: str, req: Request, phase: str) -> dict[str, Any]:
        """The menu's size and the position chosen (None: no valid choice), for the call's row."""
        menu = self.menu(req) if phase != "coordination" else None
        if not menu:
            return {}
        obj = first_json(text)
        choice = obj.get("choice") if isinstance(obj, dict) else None
        ok = isinstance(choice, int) and not isinstance(choice, bool) and 1 <= choice <= len(menu)
        legal = self._legal_counts.get((req.round, req.actor_id), len(menu))
        return {"menu_size": len(menu), "menu_position": choice if ok else None, "legal_count": legal}

    def posts(self, phase: str) -> bool:
        """Whether a menu answer carries a post: in a one-call answer, except in the compact style."""
        return phase == "one_call" and not self.compact

    def menu_label(self, action: dict[str, Any], req: Request) -> str:
        return label(action)

    def menu_text(self, req: Request, phase: str) -> str:
        menu = self.menu(req) or []
        lines = [f"{i}. {self.menu_label(a, req)}" for i, a in enumerate(menu, 1)]
        post = (
            f', then "message": a post for the other influence agents (at most {MENU_MESSAGE_CHARS} characters)'
            if self.posts(phase)
            else ""
        )
        return "\n".join(
            [
                f"Your options in round {req.round}:",
                *lines,
                f'Answer with JSON only: "choice", the number of your option{post}.',
            ]
        )

    # --- the board's facts ---------------------------------------------------------------------
    def facts(self, world: Any, entries: list[AuditEntry]) -> list[str]:
        """The authoritative board lines after a round's resolution (marked '!' on the board): each
        influence agent's outcome and the scored metric; a world's prompts may write its own."""
        parts = [f"{e.actor_id}:{e.outcome}" for e in entries]
        name = world.scoring.metric_for(world.run.objective)
        metric = world.metrics().get(name)
        line = " ".join(parts)
        if metric is not None:
            line += f" | {name}={metric:.4f}"
        return [line] if line else []

    # --- prompts ------------------------------------------------------------------------------
    @property
    def compact(self) -> bool:
        return self.style == "compact"

    def goal_text(self) -> str:
        """`spread (raise share)`: the objective and which way its metric should go."""
        direction = self.world_cls.scoring.objectives.get(self.objective, 0)
        metric = self.world_cls.scoring.metric_for(self.objective)
        return f"{self.objective} ({'raise' if direction > 0 else 'lower'} {metric})"

    def system(self, req: Request) -> str:
        summary = self.world_cls.scoring.summary or self.world_cls.__name__
        if self.compact:
            return self.compact_system(req)
        return (
            f"You are an influence agent in an agent-based model ({summary}). You and the other influence "
            f"agents coordinate on a shared board. Objective: {self.goal_text()}. "
            "Board posts are unverified and non-binding; lines marked '!' are engine facts."
        )

    def compact_system(self, req: Request) -> str:
        """The compact style's system prompt: who the agent is and what it wants, in a line."""
        summary = self.world_cls.scoring.summary or self.world_cls.__name__
        board = " You share a board with the other influence agents ('!' lines are engine facts)." if req.board else ""
        return f"You are influence agent {req.actor_id} in a {summary}. Objective: {self.goal_text()}.{board}"

    def compact_user(self, req: Request, phase: str) -> str:
        """The compact style's user prompt: what the agent sees, the board if any, its last few
        rounds and the menu."""
        history = self.history_text(dataclasses.replace(req, history=req.history[-COMPACT_HISTORY:]))
        parts = [f"round {req.round}: {self.observation_text(req)}"]
        if req.board:
            parts.append(f"board:\n{self.board_text(req)}")
        parts += [f"your last rounds: {history}", self.instruction(req, phase)]
        return "\n".join(parts)

    def observation_text(self, req: Request) -> str:
        obs = req.observation
        render = getattr(obs, "prompt_text", None) or getattr(obs, "to_text", None)
        return render() if callable(render) else str(obs)

    def board_text(self, req: Request) -> str:
        return CoordinationBoard.render(req.board) if req.board else "(empty)"

    def history_text(self, req: Request) -> str:
        lines = []
        for h in req.history:
            act = h.get("action")
            act_s = json.dumps(act, separators=(",", ":")) if isinstance(act, dict) else str(act)
            lines.append(f"R{h.get('round')}: {act_s} -> {h.get('outcome')}")
        return "; ".join(lines) if lines else "(none)"

    def instruction(self, req: Request, phase: str) -> str:
        if phase == "coordination":
            return f"Write one short post (at most {self.post_chars} characters) for the other influence agents."
        if self.menu(req):
            return self.menu_text(req, phase)
        schema = json.dumps(self.request_action_schema(req), separators=(",", ":"))
        if phase == "decision":
            return f"Choose your action for round {req.round}. Answer with one JSON object matching: {schema}"
        return (
            f"Choose your action for round {req.round} and write a post for the others. Answer with one JSON "
            f'object with two keys in this order: "action", an object matching {schema}, and "message", '
            f"your post (at most {self.post_chars} characters)."
        )

    def user(self, req: Request, phase: str) -> str:
        if self.compact and phase != "coordination" and self.menu(req):
            return self.compact_user(req, phase)
        return "\n".join(
            [
                self.observation_text(req),
                f"board:\n{self.board_text(req)}",
                f"your history: {self.history_text(req)}",
                self.instruction(req, phase),
            ]
        )

    def repair(self, error: str, phase: str, req: Request | None = None) -> str:
        return f"Your answer was rejected: {error}. Reply again with only the JSON answer, nothing else."

    # --- answers ------------------------------------------------------------------------------
    def parse(self, text: str, req: Request, phase: str) -> Parsed:
        """Answer text -> Parsed; the world's own parser first, then JSON in the text."""
        if not isinstance(text, str) or not text.strip():
            return Parsed(error="empty answer")
        if len(text) > MAX_ANSWER_CHARS:
            # the bound, not the length: an answer is kept cut just past it (the cache too)
            return Parsed(error=f"answer too long (over {MAX_ANSWER_CHARS} characters)")
        obj = first_json(text)
        message: str | None = None
        menu = self.menu(req) if phase != "coordination" else None
        if menu and isinstance(obj, dict) and "choice" in obj:
            obj, message = self._chosen(obj, menu)
            if isinstance(obj, str):
                return Parsed(error=obj)
        elif obj is not None and "message" not in self.Action.model_fields:
            obj, message = unwrap_action(obj)
        else:  # the world's own reading (none without the AnswerReading capability)
            # a one-call answer of a world whose actions carry a message of their own (a chat
            # line): {"action": <the world's action>, "message": <the board post>}
            inner = obj.get("action") if phase == "one_call" and isinstance(obj, dict) else None
            reading = json.dumps(inner) if isinstance(inner, dict) else text
            if isinstance(inner, dict) and isinstance(obj.get("message"), str):
                message = obj["message"]
            try:
                if isinstance(self.Action, AnswerReading):
                    obj = self.Action.parse_answer(reading)
                else:
                    obj = inner if isinstance(inner, dict) else None
            except Exception as exc:  # noqa: BLE001 - the world's parser may raise on junk
                return Parsed(error=f"unreadable answer: {str(exc)[:200]}")
            if isinstance(obj, BaseModel):
                obj = obj.model_dump(mode="json")
        if obj is None:
            return Parsed(error="no JSON object found in the answer")
        if message is not None and len(message) > self.message_cap:
            return Parsed(error=f"message: too long ({len(message)} > {self.message_cap} characters)")
        if not isinstance(obj, dict):
            return Parsed(error=f"action: expected a JSON object, got {type(obj).__name__}")
        try:
            action = self.Action.model_validate(obj, strict=self.strict)
        except ValidationError as exc:
            return Parsed(error=validation_text(exc))
        except Exception as exc:  # noqa: BLE001
            return Parsed(error=f"action: {str(exc)[:200]}")
        dumped = action.as_json() if hasattr(action, "as_json") else action.model_dump(mode="json", exclude_none=True)
        if message is None and isinstance(dumped.get("message"), str) and dumped["message"]:
            message = dumped["message"]  # worlds whose actions carry their message (a chat line, a board message)
        problem = self.legal_error(dumped, req)
        if problem:
            return Parsed(action=dumped, message=message, error=problem)
        return Parsed(action=dumped, message=message)

    def _chosen(self, obj: dict[str, Any], menu: list[dict[str, Any]]) -> tuple[Any, str | None]:
        """A menu answer -> (the action, its message), or (why not, None)."""
        choice = obj.get("choice")
        if not (isinstance(choice, int) and not isinstance(choice, bool) and 1 <= choice <= len(menu)):
            return f"choice: expected a number from 1 to {len(menu)}, got {json.dumps(choice)[:40]}", None
        message = obj.get("message") if isinstance(obj.get("message"), str) else None
        action = dict(menu[choice - 1])
        if message is not None and "message" in self.Action.model_fields:
            action["message"] = message  # worlds whose actions carry their message
            message = None
        return action, message

    def legal_error(self, action: dict[str, Any], req: Request) -> str | None:
        """World-specific legality against the start-of-round observation (None: legal)."""
        if isinstance(self.Action, LegalActions):
            try:
                return self.Action.legal_error(req.observation, action)
            except Exception as exc:  # noqa: BLE001
                return f"action: {str(exc)[:200]}"
        legal = self.legal_actions(req)
        if legal is not None and _bare(action) not in [_bare(a) for a in legal]:
            return f"action: {label(_bare(action)) or 'this'} is not one of this round's legal actions"
        return None

    def clean_post(self, text: str) -> str | None:
        text = (text or "").strip()
        return text or None


def prompts_for(world_cls: Any, objective: str, **settings: Any) -> WorldPrompts:
    """The prompts class the world registered, else the generic one."""
    from mam_bench.registry import load, part_of

    path = part_of(world_cls, "prompts")
    cls = load(path) if path is not None else WorldPrompts
    return cls(world_cls, objective, **settings)
