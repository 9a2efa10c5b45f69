"""What a Transport agent sees: the shared swarm observation plus the task text."""

from __future__ import annotations

from typing import ClassVar

from mam_bench.models.swarm.view import SwarmObservation


class TransportObservation(SwarmObservation):
    task_text: ClassVar[str] = (
        "Task: Transport. A large obstacle B (mass 5) blocks the only gap in the outer wall. At least 5 agents "
        "must push it the same way at once to move it. Push it out through the gap, then leave the map through "
        "the gap yourselves: every agent that gets off the map scores (max_round - round) / max_round, so "
        "escaping early is worth more."
    )
