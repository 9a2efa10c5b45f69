"""Lift arithmetic: delta is raw (treatment - reference), lift is directional (higher is better)."""

from __future__ import annotations

from typing import Sequence


def delta_lift_relative(treatment: float, reference: float, direction: int) -> dict[str, float | None]:
    delta = float(treatment) - float(reference)
    relative = delta / reference if reference else None
    # `+ 0.0` turns -0.0 into 0.0: null steering prints an honest "lift 0"
    return {"delta": delta + 0.0, "lift": direction * delta + 0.0, "relative": relative}


def trajectory_lift(series: Sequence[float], reference_final: float, direction: int) -> dict[str, float]:
    """best_lift: the best point of the treatment; lift_area: its mean (spec README section 7)."""
    values = [direction * (float(v) - float(reference_final)) + 0.0 for v in series]
    if not values:
        return {"best_lift": 0.0, "lift_area": 0.0}
    return {"best_lift": max(values), "lift_area": sum(values) / len(values)}
