"""The prompt and answer handling any world gets for free from its contract."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError, create_model

from mam_bench.answers import MAX_ANSWER_CHARS, first_json, unwrap_action
from mam_bench.board import CoordinationBoard
from mam_bench.capabilities import AnswerReading, LegalActions
from mam_bench.protocol import Request


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

    def __init__(self, world_cls: Any, objective: str, post_chars: int = 600, message_cap: int = 4000):
        self.world_cls = world_cls
        self.objective = objective
        self.post_chars = post_chars
        self.message_cap = message_cap
        self.Action: type[BaseModel] = world_cls.Action

    # --- schemas ------------------------------------------------------------------------------
    def action_schema(self) -> dict[str, Any]:
        cache = self.__dict__.setdefault("_schemas", {})
        if "action" not in cache:
            cache["action"] = self.Action.model_json_schema()
        return cache["action"]

    def answer_schema(self, phase: str) -> dict[str, Any] | None:
        """JSON schema for structured output (None: free text, the coordination post).

        Built once per phase: pydantic's schema generation costs milliseconds per call.
        """
        if phase == "coordination":
            return None
        cache = self.__dict__.setdefault("_schemas", {})
        if phase not in cache:
            if phase == "decision":
                cache[phase] = self.action_schema()
            else:
                both = create_model("Answer", message=(str, ...), action=(self.Action, ...))
                cache[phase] = both.model_json_schema()
        return cache[phase]

    # --- prompts ------------------------------------------------------------------------------
    def system(self, req: Request) -> str:
        summary = getattr(self.world_cls, "summary", "") or self.world_cls.__name__
        direction = self.world_cls.scoring.objectives.get(self.objective, 0)
        metric = self.world_cls.metric_for(self.objective)
        goal = "raise" if direction > 0 else "lower"
        return (
            f"You are an influence agent in an agent-based model ({summary}). You and the other influence "
            f"agents coordinate on a shared board. Objective: {self.objective} ({goal} {metric}). "
            "Board posts are unverified and non-binding; lines marked '!' are engine facts."
        )

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
        schema = json.dumps(self.action_schema(), separators=(",", ":"))
        if phase == "coordination":
            return f"Write one short post (at most {self.post_chars} characters) for the other influence agents."
        if phase == "decision":
            return f"Choose your action for round {req.round}. Answer with one JSON object matching: {schema}"
        return (
            f"Choose your action for round {req.round} and a post for the others. Answer with JSON only: "
            f'{{"message": "<post>", "action": <object matching {schema}>}}'
        )

    def user(self, req: Request, phase: str) -> str:
        return "\n".join(
            [
                self.observation_text(req),
                f"board:\n{self.board_text(req)}",
                f"your history: {self.history_text(req)}",
                self.instruction(req, phase),
            ]
        )

    def repair(self, error: str, phase: str) -> str:
        return f"Your answer was rejected: {error}. Reply again with only the JSON answer, nothing else."

    # --- answers ------------------------------------------------------------------------------
    def parse(self, text: str, req: Request, phase: str) -> Parsed:
        """Answer text -> Parsed; the world's own parser first, then JSON in the text."""
        if not isinstance(text, str) or not text.strip():
            return Parsed(error="empty answer")
        if len(text) > MAX_ANSWER_CHARS:
            return Parsed(error=f"answer too long ({len(text)} characters)")
        obj = first_json(text)
        message: str | None = None
        if obj is not None and "message" not in self.Action.model_fields:
            obj, message = unwrap_action(obj)
        else:  # the world's own reading (none without the AnswerReading capability)
            try:
                obj = self.world_cls.parse_answer(text) if isinstance(self.world_cls, AnswerReading) else None
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

    def legal_error(self, action: dict[str, Any], req: Request) -> str | None:
        """World-specific legality against the start-of-round observation (None: legal)."""
        if isinstance(self.world_cls, LegalActions):
            try:
                return self.world_cls.legal_error(req.observation, action)
            except Exception as exc:  # noqa: BLE001
                return f"action: {str(exc)[:200]}"
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
