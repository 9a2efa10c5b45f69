"""What a Flocking agent sees: the shared swarm observation plus the task text."""

from __future__ import annotations

from typing import ClassVar

from mam_bench.models.swarm.view import SwarmObservation


class FlockingObservation(SwarmObservation):
    task_text: ClassVar[str] = (
        "Task: Flocking. Together, form a hollow square (its side is in your status) anywhere on the grid. "
        "The score rises as the swarm's shape gets closer to the target shape than it was at the start "
        "(it never goes down); the game ends when the shape is exact. "
        "Agents beyond the square's cells may stand anywhere."
    )
