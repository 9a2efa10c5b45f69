"""The coordination board: an append-only log only influence agents read.

Posts are unverified and non-binding; authoritative entries are engine facts (what was accepted,
what collided, the metrics). Readers see a sliding window of rounds, and every entry is archived.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

Kind = Literal["post", "authoritative"]


class BoardEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    round: int
    phase: str
    actor_id: int | None
    text: str
    kind: Kind = "post"
    truncated: bool = False


class CoordinationBoard:
    """Append-only posts plus facts, with a round window and size caps."""

    def __init__(self, window: int = 3, post_cap: int = 4000, enabled: bool = True):
        if window < 1:
            raise ValueError("board window must be at least 1 round")
        self.window = window
        self.post_cap = post_cap
        self.enabled = enabled
        self.entries: list[BoardEntry] = []

    def post(self, round_: int, actor_id: int, text: str, phase: str = "coordination") -> BoardEntry | None:
        """Append one influence agent's post, cut to the cap (the cut is recorded)."""
        if not self.enabled or text is None:
            return None
        text = str(text)
        truncated = len(text) > self.post_cap
        entry = BoardEntry(
            round=round_, phase=phase, actor_id=actor_id, text=text[: self.post_cap], truncated=truncated
        )
        self.entries.append(entry)
        return entry

    def fact(self, round_: int, text: str, phase: str = "resolution") -> BoardEntry | None:
        """Append an engine fact (accepted moves, collisions, metrics)."""
        if not self.enabled:
            return None
        entry = BoardEntry(round=round_, phase=phase, actor_id=None, text=text, kind="authoritative")
        self.entries.append(entry)
        return entry

    def view(self, round_: int) -> tuple[BoardEntry, ...]:
        """What an influence agent deciding in `round_` may read: the last `window` rounds."""
        if not self.enabled:
            return ()
        low = round_ - self.window + 1
        return tuple(e for e in self.entries if low <= e.round <= round_)

    def to_jsonl(self, path: Path) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            for e in self.entries:
                fh.write(json.dumps(e.model_dump(), ensure_ascii=False) + "\n")

    @staticmethod
    def render(entries: tuple[BoardEntry, ...] | list[BoardEntry]) -> str:
        """Compact text for prompts: one line per entry, facts marked with '!'."""
        lines = []
        for e in entries:
            who = "!" if e.kind == "authoritative" else str(e.actor_id)
            lines.append(f"R{e.round} {who}: {e.text}")
        return "\n".join(lines)
