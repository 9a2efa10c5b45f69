"""Civil Violence cascade renderer: quiet and active citizens, police, the jail count, and rings on
the influence agents (the same ids are masked in both runs, so both boards ring them)."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba

from mam_bench.dashboards.grid_axes import ring_cells, square_frame
from mam_bench.dashboards.legend import Key

#: Okabe-Ito colours (colour-blind safe), as the classic civil violence world uses them
COLOURS = {"empty": "#FFFFFF", "quiet": "#56B4E9", "active": "#D55E00", "police": "#009E73"}
INFLUENCE_RING = "#000000"


def board_rgba(row: dict[str, Any]) -> np.ndarray:
    size, first_police = int(row["size"]), int(row["first_police"])
    image = np.tile(np.array(to_rgba(COLOURS["empty"])), (size, size, 1))
    for i, cell in enumerate(row["locations"]):
        if cell is None:
            continue
        kind = "police" if i >= first_police else ("active" if row["active"][i] else "quiet")
        image[cell[0], cell[1]] = to_rgba(COLOURS[kind])
    return image


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    jailed = sum(cell is None for cell in row["locations"])
    keys = [
        Key("quiet citizen", COLOURS["quiet"]),
        Key("active citizen", COLOURS["active"]),
        Key("police", COLOURS["police"]),
        Key(f"jailed (off the board): {jailed}", "#FFFFFF", "#888888", width=0.5),
    ]
    if info.influence_ids:
        keys.append(Key("influence agent (ring)", "#FFFFFF", INFLUENCE_RING, marker="o", width=1.6, size=9))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    size = int(row["size"])
    ax.imshow(board_rgba(row), interpolation="nearest")
    ringed = [row["locations"][i] for i in info.influence_ids if i < len(row["locations"])]
    ringed = [cell for cell in ringed if cell is not None]  # a jailed influence citizen is off the board
    ring_cells(ax, ringed, size, INFLUENCE_RING)
    square_frame(ax, size)
