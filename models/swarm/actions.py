"""The swarm action schema: one primary action plus an optional local message (<= 120 chars)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict

from mam_bench.models.swarm.answer import parse_answer
from mam_bench.models.swarm.grid import BASE_ACTIONS


class SwarmAction(BaseModel):
    """`{"action": "UP", "message": "..."}`; longer messages are cut to 120 chars with '...'."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Literal[BASE_ACTIONS]  # required: a schema-valid answer always names its action
    message: str | None = None
    #: no-op names a task accepts, mapped to what physics sees
    aliases: ClassVar[dict[str, str]] = {}

    @classmethod
    def allowed(cls) -> tuple[str, ...]:
        """The action names this task's schema accepts."""
        return get_args(cls.model_fields["action"].annotation)

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def null_action(cls) -> dict[str, Any]:
        return {"action": "STAY", "message": None}

    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """Each action the task accepts (its no-op aliases too: they are legal answers)."""
        return [{"action": a} for a in cls.allowed()]

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        names = [a for a in cls.allowed() if a not in cls.aliases]
        return {"action": names[int(rng.integers(len(names)))], "message": None}

    @classmethod
    def parse_answer(cls, text: str) -> dict[str, Any]:
        """SwarmBench answer text -> action dict (raises AnswerError when nothing valid)."""
        return parse_answer(text, cls.allowed())
