"""What an influence actor may do: stay, or move its own token to a cell empty at round start."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator


def action_schema(size: int | None = None) -> dict[str, Any]:
    """The strict JSON schema of an action: exactly `{"stay": true}` or exactly `{"row": r, "col": c}`
    with 0 <= r, c < size. A stay with a cell, a half cell or an extra key cannot be expressed, so a
    schema-valid answer can fail only for occupancy or a collision."""
    cell: dict[str, Any] = {"type": "integer", "minimum": 0}
    if size is not None:
        cell["maximum"] = size - 1
    return {
        "title": "SchellingAction",
        "oneOf": [
            {
                "title": "Stay",
                "type": "object",
                "properties": {"stay": {"const": True}},
                "required": ["stay"],
                "additionalProperties": False,
            },
            {
                "title": "Move",
                "type": "object",
                "properties": {"row": dict(cell), "col": dict(cell)},
                "required": ["row", "col"],
                "additionalProperties": False,
            },
        ],
    }


class SchellingAction(BaseModel):
    """`{"stay": true}` or `{"row": r, "col": c}` (0-based)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The strict schema (`action_schema`); the board size is not known to the class, so only the
        world's `action_schema()` bounds row and col from above."""
        return action_schema()

    stay: bool = False
    row: int | None = None
    col: int | None = None

    @model_validator(mode="after")
    def _stay_or_cell(self) -> SchellingAction:
        if self.stay and (self.row is not None or self.col is not None):
            raise ValueError("give either stay or row and col, not both")
        if not self.stay and (self.row is None or self.col is None):
            raise ValueError("a move needs both row and col (or stay: true)")
        return self

    def as_json(self) -> dict[str, Any]:
        return {"stay": True} if self.stay else {"row": self.row, "col": self.col}

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def null_action(cls) -> dict[str, Any]:
        return dict(STAY)

    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """Staying, or a move to any cell empty at round start."""
        return [dict(STAY), *({"row": r, "col": c} for r, c in observation.vacancies())]

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        """Uniform over staying and every cell empty at round start."""
        vac = observation.vacancies()
        k = int(rng.integers(len(vac) + 1))
        if k == len(vac):
            return dict(STAY)
        return {"row": vac[k][0], "col": vac[k][1]}

    @classmethod
    def declared_action(cls, actor_id: int, text: str) -> dict[str, Any] | None:
        return declared_target(actor_id, text)


STAY = {"stay": True}


def parse_action(raw: Any) -> tuple[dict[str, Any] | None, str | None]:
    """Validate a proposal; returns (action, None) or (None, reason)."""
    if raw is None:
        return STAY, None
    try:
        return SchellingAction.model_validate(raw).as_json(), None
    except ValidationError as exc:
        err = exc.errors()[0]
        return None, f"{'.'.join(map(str, err.get('loc', ()))) or 'action'}: {err.get('msg')}"
    except Exception as exc:  # noqa: BLE001 - hostile input must never crash a round
        return None, f"action: {exc}"


_DECLARED = (
    re.compile(r"\bI\s*\(\s*(?P<id>\d+)\s*\)\s*will\s+target\s+(?P<r>\d+)\s*,\s*(?P<c>\d+)", re.I),
    re.compile(r"(?<!\d)(?P<id>\d+)\s*(?:\(me\))?\s*(?:->|→)\s*(?P<r>\d+)\s*,\s*(?P<c>\d+)"),
    re.compile(r"(?<!\d)(?P<id>\d+)\s*(?:\(me\))?\s*(?:->|→)\s*(?P<hold>hold|stay)\b", re.I),
)


def declared_target(actor_id: int, text: str) -> dict[str, Any] | None:
    """The target a post declares for its own author (docs/worlds/schelling.md, "Posts and mismatches"), or None."""
    for pattern in _DECLARED:
        for m in pattern.finditer(text or ""):
            if int(m.group("id")) != actor_id:
                continue
            if m.groupdict().get("hold"):
                return STAY
            return {"row": int(m.group("r")), "col": int(m.group("c"))}
    return None
