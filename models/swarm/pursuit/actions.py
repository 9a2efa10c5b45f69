"""Pursuit actions: the four moves or STAY, plus an optional message."""

from mam_bench.models.swarm.actions import SwarmAction as PursuitAction

__all__ = ["PursuitAction"]
