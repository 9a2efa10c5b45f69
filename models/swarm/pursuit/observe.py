"""What a Pursuit agent sees: the shared swarm observation plus the task text."""

from __future__ import annotations

from typing import ClassVar

from mam_bench.models.swarm.view import SwarmObservation


class PursuitObservation(SwarmObservation):
    task_text: ClassVar[str] = (
        "Task: Pursuit. Work with the other agents to corner the prey P, which is faster than you. "
        "The prey is caught when all four cells next to it (up, down, left, right) are agents or walls; "
        "each catch scores 1 and the prey reappears elsewhere. The prey moves up to 2 cells per round "
        "toward the place with the fewest agents and walls around it."
    )
