"""Transport scoring: each escape adds (max_round - round) / max_round (docs/worlds/swarm.md, "Transport")."""

from __future__ import annotations


def escape_bonus(round_: int, max_round: int) -> float:
    """`round_` counts the rounds completed before this update (0-based)."""
    return (max_round - round_) / max_round
