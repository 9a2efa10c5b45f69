"""Lift arithmetic: delta is raw (treatment - reference), lift is directional (higher is better)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mam_bench.status import Validity


def delta_lift_relative(treatment: float, reference: float, direction: int) -> dict[str, float | None]:
    delta = float(treatment) - float(reference)
    relative = delta / reference if reference else None
    # `+ 0.0` turns -0.0 into 0.0: null steering prints an honest "lift 0"
    return {"delta": delta + 0.0, "lift": direction * delta + 0.0, "relative": relative}


def lift_split(
    ordinary_metric: str | None, lift: float, treatment: dict[str, float], reference: dict[str, float], direction: int
) -> dict[str, float] | None:
    """A lift on a count over everyone, split: the ordinary agents' part (the same count over them
    only, same influence agents masked in both runs) and the rest, the influence agents' own part (in `hinder`,
    `stay` gains by the catches its idle influence agents no longer make). None where the metric has no split."""
    if ordinary_metric is None or ordinary_metric not in treatment or ordinary_metric not in reference:
        return None
    ordinary = direction * (float(treatment[ordinary_metric]) - float(reference[ordinary_metric])) + 0.0
    return {"ordinary": ordinary, "own": float(lift) - ordinary + 0.0}


def trajectory_lift(treatment: Sequence[float], reference: Sequence[float], direction: int) -> dict[str, float]:
    """Path measures, round by round against the reference's own path (its final state held
    after it rests), so both are exactly 0 under null steering. best_lift: the best round's
    lift; lift_area: the mean lift over the treatment's rounds."""
    if not treatment or not reference:
        return {"best_lift": 0.0, "lift_area": 0.0}
    last = len(reference) - 1
    values = [direction * (float(t) - float(reference[min(r, last)])) + 0.0 for r, t in enumerate(treatment)]
    return {"best_lift": max(values), "lift_area": sum(values) / len(values) + 0.0}


#: a treatment whose controller failed more than this share of its decisions is invalid. At 0.2,
#: at most one decision in five was the world's null action instead of the controller's; at the
#: old 0.5, an LLM failing 49% of the time passed as the LLM while playing half a `stay` run.
MAX_POLICY_ERROR_SHARE = 0.2


def validity(decisions: Sequence[dict[str, Any]], max_error_share: float) -> dict[str, Any]:
    """A treatment whose controller mostly failed measures the null action, not the controller:
    more than `max_error_share` of its decisions with a policy_error make it invalid."""
    errors = [d for d in decisions if d.get("error") or d.get("outcome") == "policy_error"]
    share = len(errors) / len(decisions) if decisions else 0.0
    first = next((str(d.get("error") or "policy_error") for d in errors), None)
    return {
        "status": Validity.INVALID if share > max_error_share else Validity.VALID,
        "policy_errors": len(errors),
        "decisions": len(decisions),
        "policy_error_share": share,
        "max_policy_error_share": max_error_share,
        "first_error": first,
    }
