"""The one action schema of both roles: a citizen sets `active` and may move, a police officer may
move and arrest at a square; fields a role does not use stay empty. `{}` is the null action."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator


class CascadeAction(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    active: bool | None = None  # citizens: None keeps the current activity
    row: int | None = None  # destination: any unclaimed cell empty at the phase's start; None stays
    col: int | None = None
    target_row: int | None = None  # police: the square of an active citizen adjacent to where it ends
    target_col: int | None = None

    @model_validator(mode="after")
    def _pairs(self) -> CascadeAction:
        if (self.row is None) != (self.col is None):
            raise ValueError("give both row and col, or neither to stay")
        if (self.target_row is None) != (self.target_col is None):
            raise ValueError("give both target_row and target_col, or neither to make no arrest")
        return self

    @property
    def destination(self) -> tuple[int, int] | None:
        return None if self.row is None or self.col is None else (self.row, self.col)

    @property
    def target(self) -> tuple[int, int] | None:
        return None if self.target_row is None or self.target_col is None else (self.target_row, self.target_col)

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def null_action(cls) -> dict[str, Any]:
        return {}

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        """Uniform over staying and every free cell; a citizen's activity a fair coin; an officer
        that stays arrests a uniform one of its targets or nobody."""
        if observation.location is None:
            return {}
        k = int(rng.integers(len(observation.vacancies) + 1))
        dest = observation.vacancies[k] if k < len(observation.vacancies) else None
        if observation.role == "citizen":
            return action_dict(bool(rng.integers(2)), dest)
        targets = observation.targets if dest is None else ()
        t = int(rng.integers(len(targets) + 1))
        return action_dict(None, dest, targets[t] if t < len(targets) else None)


def action_dict(
    active: bool | None, destination: tuple[int, int] | None, target: tuple[int, int] | None = None
) -> dict:
    """The action as the audit records it (only the fields it sets)."""
    out: dict = {}
    if active is not None:
        out["active"] = bool(active)
    if destination is not None:
        out["row"], out["col"] = destination
    if target is not None:
        out["target_row"], out["target_col"] = target
    return out
