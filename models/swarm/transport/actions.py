"""Transport actions: the four moves or STAY, plus an optional message."""

from mam_bench.models.swarm.actions import SwarmAction as TransportAction

__all__ = ["TransportAction"]
