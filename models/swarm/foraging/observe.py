"""What a Foraging agent sees: the shared swarm observation plus the task text."""

from __future__ import annotations

from typing import ClassVar

from mam_bench.models.swarm.view import SwarmObservation


class ForagingObservation(SwarmObservation):
    task_text: ClassVar[str] = (
        "Task: Foraging. Carry food from the food source F to the nest N through the maze of walls W. "
        "Standing next to F (up, down, left or right) while not carrying picks one food up automatically; "
        "standing next to N while carrying delivers it (score +1). Agents shown as $id are NOT carrying food, "
        "plain ids are carrying. PICKUP and DROP are accepted but do nothing extra."
    )
