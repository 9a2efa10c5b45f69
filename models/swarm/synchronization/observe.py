"""What a Synchronization agent sees: the shared swarm observation plus the task text."""

from __future__ import annotations

from typing import ClassVar

from mam_bench.models.swarm.view import SwarmObservation


class SynchronizationObservation(SwarmObservation):
    task_text: ClassVar[str] = (
        "Task: Synchronization. Every agent has a light that is on or off; SWITCH toggles yours (you do not "
        "move that round). Agents shown as $id have their light off, plain ids have it on. A point is scored "
        "each time ALL agents share one state and that state differs from the last unanimous state scored, "
        "so the swarm must agree, then flip together, again and again."
    )
