"""Synchronization scoring: alternating unanimity (docs/worlds/swarm.md, "Synchronization")."""

from __future__ import annotations

import numpy as np


def unanimous_flip(lights: np.ndarray, active: np.ndarray, prev_state: bool | None) -> tuple[bool, bool | None]:
    """(scored, new prev_state): a point when all agree on a state other than the last scored one."""
    live = lights[active]
    if len(live) == 0:
        return False, prev_state
    if live.all() or not live.any():
        state = bool(live[0])
        if state != prev_state:
            return True, state
    return False, prev_state
