"""Drawing helpers shared by the grid worlds' board renderers: one square frame, one influence ring."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes


def ring_cells(ax: Axes, cells: Sequence[tuple[int, int]], size: int, colour: str) -> None:
    """Ring the (row, col) cells of the influence agents, sized to the board's cells."""
    if not cells:
        return
    ax.scatter(
        [c for _, c in cells],
        [r for r, _ in cells],
        s=(220 / size) ** 2 * 1.6,
        facecolors="none",
        edgecolors=colour,
        linewidths=1.4,
    )


def square_frame(ax: Axes, size: int) -> None:
    """A size x size board, row 0 at the top, no ticks."""
    ax.set_xlim(-0.5, size - 0.5)
    ax.set_ylim(size - 0.5, -0.5)
    ax.set_xticks([])
    ax.set_yticks([])
