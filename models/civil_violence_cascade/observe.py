"""What an influence agent sees at its turn: local, as in the pilot (its vision), plus the cells it may claim."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

Cell = tuple[int, int]


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples the observation holds."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


@dataclass(frozen=True)
class CascadeObservation:
    actor_id: int
    role: str
    step: int
    max_steps: int
    size: int
    vision: int
    objective: str
    priority: str
    location: Cell | None  # None: in jail (a turn for the board only)
    active: bool | None  # None for police
    jail_remaining: int
    #: occupied cells within vision: (row, col, "police" | "active" | "quiet", id)
    seen: tuple[tuple[int, int, str, int], ...]
    #: cells empty at the phase's start and not claimed yet: the destinations an influence agent may claim
    vacancies: tuple[Cell, ...]
    #: the adjacent ones among them (an ordinary agent's moves)
    adjacent: tuple[Cell, ...]
    #: police: squares of unclaimed active citizens adjacent to where it stands now
    targets: tuple[Cell, ...]
    participation: float

    def to_text(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> CascadeObservation:
        return cls(**{k: _tuples(v) for k, v in json.loads(text).items()})
