"""The centralized variant (paper App. L.3): agent 0 commands with a global view.

The commander's frames are the whole grid (global coordinates from 0, itself as `Y`); every
other agent keeps its k x k view. Its messages reach every agent and the others' reach only it
(`MessageBus(commander=0)`). A status line tells each agent its role, so the prompt says it.
"""

from __future__ import annotations

from mam_bench.models.swarm.view import FrameData, ViewFrame, render

COMMANDER = 0
ROLE = {
    True: "commander: you see the whole map; your messages reach every agent; the others' messages reach only you",
    False: "Agent 0 is the commander and sees the whole map; its messages reach you anywhere; yours reach only it",
}


def global_view(frame: FrameData, aid: int) -> ViewFrame | None:
    """The whole grid as one frame (None when the agent was off the map)."""
    size = frame.terrain.shape[0]
    if not frame.active[aid]:
        return None
    # a window of side 2*size-1 centred anywhere on the map covers it; cut it back to the map
    wide = render(frame, aid, 2 * size - 1)
    r, c = -wide.row0, -wide.col0
    cells = tuple(row[c : c + size] for row in wide.cells[r : r + size])
    return ViewFrame(round=frame.round, row0=0, col0=0, cells=cells)


def role_status(aid: int) -> tuple[str, str]:
    return ("role", ROLE[aid == COMMANDER])
