"""Transport parameters: swarm defaults, the box shape and the ordinary agents' strategy."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mam_bench.models.swarm.params import SwarmParams


class TransportParams(SwarmParams):
    strategy: Literal["sidestep", "push"] = Field(
        "sidestep",
        description="sidestep: random walk until the box or the gap was in view, then push the box"
        " sideways while it cannot go straight out, then out, then escape; push: only ever push straight toward"
        " the gap, knowing the box from round 0 (the earlier rule)",
    )
    box: Literal["upstream", "irregular", "square"] | None = Field(
        None,
        description="upstream: one of upstream's 8 corner boxes; irregular: a grown 13-cell box in front of a"
        " gap of its width; square: solid footprint (Fig. 8); default: upstream under rules=swarmbench, else irregular",
    )

    @property
    def layout(self) -> str:
        return self.box or ("upstream" if self.upstream else "irregular")
