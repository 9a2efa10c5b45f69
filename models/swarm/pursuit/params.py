"""Pursuit parameters: the shared swarm defaults plus the ordinary agents' strategy."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class PursuitParams(SwarmParams):
    strategy: Literal["greedy", "hungarian"] = Field(
        "greedy",
        description="greedy: local view and memory only (default); hungarian: global slot assignment"
        " then BFS (a central planner: upper bound)",
    )
