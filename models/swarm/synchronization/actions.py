"""Synchronization actions: the moves, STAY and SWITCH (toggle the light; no move that round)."""

from __future__ import annotations

from typing import Literal

from mam_bench.models.swarm.actions import SwarmAction


class SynchronizationAction(SwarmAction):
    action: Literal["UP", "DOWN", "LEFT", "RIGHT", "STAY", "SWITCH"] = "STAY"
