"""Foraging actions: the moves and STAY; PICKUP and DROP are accepted as no-op aliases.

Picking up and dropping happen automatically next to F and N (upstream and the paper's A.4.3).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.grid import BASE_ACTIONS


class ForagingAction(SwarmAction):
    action: Literal[(*BASE_ACTIONS, *("PICKUP", "DROP"))]
    #: no-op names mapped to what physics sees
    aliases: ClassVar[dict[str, str]] = {"PICKUP": "STAY", "DROP": "STAY"}
