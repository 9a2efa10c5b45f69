"""What an influence actor may do: stay, or move its own token to a cell empty at round start."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator


class SchellingAction(BaseModel):
    """`{"stay": true}` or `{"row": r, "col": c}` (0-based)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stay: bool = False
    row: int | None = None
    col: int | None = None

    @model_validator(mode="after")
    def _stay_or_cell(self) -> "SchellingAction":
        if self.stay and (self.row is not None or self.col is not None):
            raise ValueError("give either stay or row and col, not both")
        if not self.stay and (self.row is None or self.col is None):
            raise ValueError("a move needs both row and col (or stay: true)")
        return self

    def as_json(self) -> dict[str, Any]:
        return {"stay": True} if self.stay else {"row": self.row, "col": self.col}


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
    """The target a post declares for its own author (spec section 8), or None."""
    for pattern in _DECLARED:
        for m in pattern.finditer(text or ""):
            if int(m.group("id")) != actor_id:
                continue
            if m.groupdict().get("hold"):
                return STAY
            return {"row": int(m.group("r")), "col": int(m.group("c"))}
    return None
