"""Foraging parameters: swarm defaults plus the ordinary agents' strategy."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class ForagingParams(SwarmParams):
    strategy: Literal["explore", "bfs"] = Field(
        "explore",
        description="explore: random walk until F or N was seen, then BFS (default); bfs: shortest path"
        " over the whole maze from round 0 (knows the map: upper bound)",
    )
    jitter: float = Field(0.1, ge=0.0, le=1.0, description="chance of a random step (breaks corridor jams)")
