"""Flocking parameters: swarm defaults, the ordinary strategy and the dissimilarity's cost scale."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class FlockingParams(SwarmParams):
    strategy: Literal["local", "nearest", "assign"] = Field(
        "local",
        description="local: the human baseline on the agent's own view (a square anchored at the"
        " bounding box of the agents it sees, nearest slot no seen agent holds); nearest: the same on every"
        " agent's global position (upper bound); assign: global Hungarian slot assignment (upper bound)",
    )
    cost_scale: float = Field(
        1.0, gt=0.0, le=1.0, description="1.0 = upstream's full Manhattan cost (its scores); 0.5 = the paper's formula"
    )
