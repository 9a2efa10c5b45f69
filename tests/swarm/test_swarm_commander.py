"""The centralized-commander variant (paper App. L.3): agent 0 sees the whole map; messages run
only between it and the others."""

from __future__ import annotations

import numpy as np

from mam_bench.models.swarm.messages import MessageBus
from mam_bench.registry import get_world


def _world(**params):
    cls = get_world("foraging")
    return cls(cls.Params.from_strings({"board": "false", **params}), seed=2, influence_ids=tuple(range(10)))


def test_commander_sees_the_whole_map_and_the_others_their_window():
    world = _world(commander="true")
    chief, other = world.observe(0).frames[0], world.observe(5).frames[0]
    assert (chief.row0, chief.col0, len(chief.cells), len(chief.cells[0])) == (0, 0, 10, 10)
    assert sum(row.count("Y") for row in chief.cells) == 1
    r, c = world.pos[0]
    assert chief.cells[r][c] == "Y"
    assert len(other.cells) == 5 and other == _world().observe(5).frames[0]
    assert dict(world.observe(0).status)["role"].startswith("commander")
    assert "role" not in dict(_world().observe(0).status)


def test_messages_run_between_the_commander_and_the_others_only():
    pos = np.array([[1, 1], [1, 2], [8, 8], [8, 7]])
    active = np.ones(4, dtype=bool)
    bus = MessageBus(seed=0, reach=2, commander=0)
    bus.send(0, 0, (1, 1), "all go right")
    bus.send(0, 2, (8, 8), "I see food")
    inbox = bus.deliver(1, pos, active)
    assert inbox[1] == ["all go right"] and inbox[3] == ["all go right"]  # 3 is far from 0, near 2
    assert inbox[0] == ["I see food"]  # the far agent's message reaches the commander only
    local = MessageBus(seed=0, reach=2)
    local.send(0, 2, (8, 8), "I see food")
    assert local.deliver(1, pos, active) == {3: ["I see food"]}
