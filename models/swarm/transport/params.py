"""Transport parameters: swarm defaults, the box shape and the ordinary agents' strategy."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class TransportParams(SwarmParams):
    strategy: Literal["push"] = Field("push", description="push: line up behind the box, push it toward the gap, then escape")
    box: Literal["irregular", "square"] = Field("irregular", description="13-cell irregular box (paper) or solid footprint (Fig. 8)")
