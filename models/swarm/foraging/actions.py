"""Foraging actions: the moves and STAY; PICKUP and DROP are accepted as no-op aliases.

Picking up and dropping happen automatically next to F and N (upstream and the paper's A.4.3).
"""

from __future__ import annotations

from typing import Literal

from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.grid import BASE_ACTIONS


class ForagingAction(SwarmAction):
    action: Literal[(*BASE_ACTIONS, *("PICKUP", "DROP"))]
