"""Synchronization parameters: swarm defaults plus the shared clock period of the rule."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class SynchronizationParams(SwarmParams):
    strategy: Literal["vote", "gather"] = Field(
        "vote",
        description="vote: gather, SWITCH to the strict visible majority, all SWITCH every period;"
        " gather: the same without the local vote (clock only)",
    )
    period: int = Field(10, ge=2, le=1000, description="every period-th round all ordinary agents SWITCH")
