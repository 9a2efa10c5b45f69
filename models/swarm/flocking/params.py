"""Flocking parameters: swarm defaults, the ordinary strategy and the dissimilarity's cost scale."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class FlockingParams(SwarmParams):
    strategy: Literal["nearest", "assign"] = Field(
        "nearest", description="nearest: the human baseline (nearest free slot of a square anchored at the"
        " swarm's bounding box); assign: optimal Hungarian slot assignment, then step toward it"
    )
    cost_scale: float = Field(1.0, gt=0.0, le=1.0, description="1.0 = upstream's full Manhattan cost (its scores); 0.5 = the paper's written formula")
