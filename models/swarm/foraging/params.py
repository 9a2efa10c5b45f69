"""Foraging parameters: swarm defaults plus the ordinary agents' strategy, and a larger grid and
swarm than the other tasks allow (its round costs the same per agent at any size; a memory
estimate refuses what would not fit)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class ForagingParams(SwarmParams):
    size: int = Field(10, ge=6, le=800, description="grid side, outer wall ring included")
    agents: int = Field(10, ge=1, le=40_000, description="number of agents N")
    strategy: Literal["explore", "bfs"] = Field(
        "explore",
        description="explore: random walk until F or N was seen, then BFS (default); bfs: shortest path"
        " over the whole maze from round 0 (knows the map: upper bound)",
    )
    jitter: float = Field(0.1, ge=0.0, le=1.0, description="chance of a random step (breaks corridor jams)")

    def memory_needed(self) -> tuple[str, int]:
        """A pair with both baselines, measured (`bench/scale.py`): the interpreter and its
        libraries, then four worlds' cells (Mesa grid, terrain, distance fields; about 1.1 KB a
        cell) and agents (Mesa agent, history and streams; about 5.4 KB), with a margin."""
        return "size", 400 * 2**20 + 4 * (1536 * self.size**2 + 8 * 2**10 * self.agents)
