"""Pursuit's array paths: every prey slot's BFS field found at once, and kept while it holds.

`tests/swarm/test_pursuit_speed.py` holds `slot_fields` to `navigation.bfs`, and
`tests/swarm/test_agent_reference.py` the world on these paths to the agents' own rule.
"""

from __future__ import annotations

import numpy as np

from mam_bench.models.swarm.navigation import FAR
from mam_bench.models.swarm.pursuit.agents import prey_slots


def slot_fields(passable: np.ndarray, slots: list[tuple[int, int]]) -> np.ndarray:
    """`bfs(passable, [slot])` for every slot at once, stacked: the same steps, found level by
    level over the whole board (one array step per distance instead of one Python step per cell)."""
    H, W = passable.shape
    dist = np.full((len(slots), H, W), FAR, dtype=np.int64)
    frontier = np.zeros(dist.shape, dtype=bool)
    for k, cell in enumerate(slots):
        frontier[(k, *cell)] = True
    unseen = ~frontier
    dist[frontier] = 0
    steps = 0
    while frontier.any():
        steps += 1
        grown = np.zeros_like(frontier)
        grown[:, 1:, :] |= frontier[:, :-1, :]
        grown[:, :-1, :] |= frontier[:, 1:, :]
        grown[:, :, 1:] |= frontier[:, :, :-1]
        grown[:, :, :-1] |= frontier[:, :, 1:]
        frontier = grown & passable & unseen
        unseen &= ~frontier
        dist[frontier] = steps
    return dist


class SlotFields:
    """`bfs_slot_fields` on arrays, kept while the prey and the passable cells stay the same: the
    fields depend on nothing else (terrain never changes), and a prey far from the swarm stands
    still for many rounds."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._value: tuple = ()

    def __call__(
        self, prey: tuple[int, int], terrain: np.ndarray, passable: np.ndarray
    ) -> tuple[list[tuple[int, int]], list[np.ndarray], np.ndarray | None]:
        key = (prey, passable.tobytes())
        if key != self._key:
            slots = prey_slots(prey, terrain)
            fields = slot_fields(passable, slots)
            self._key, self._value = key, (slots, list(fields), fields.min(axis=0) if slots else None)
        return self._value
