"""Pursuit parameters: the shared swarm defaults plus the ordinary agents' strategy."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class PursuitParams(SwarmParams):
    strategy: Literal["hungarian", "greedy"] = Field(
        "hungarian", description="hungarian: global slot assignment then BFS; greedy: local view and memory only"
    )
