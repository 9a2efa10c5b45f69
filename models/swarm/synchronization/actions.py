"""Synchronization actions: the moves, STAY and SWITCH (toggle the light; no move that round)."""

from __future__ import annotations

from typing import Literal

from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.grid import BASE_ACTIONS


class SynchronizationAction(SwarmAction):
    action: Literal[(*BASE_ACTIONS, *("SWITCH",))]
