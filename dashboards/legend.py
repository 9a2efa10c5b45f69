"""Legend entries as data: renderers say what their symbols mean, figures turn that into handles.

A renderer's `legend(row, info)` returns `Key`s; the same keys feed the live boards and the GIF
export, so a picture never shows a colour it does not explain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D


@dataclass(frozen=True)
class Key:
    """One legend entry: a marker (`s` square, `o` dot, `$P$` a letter, `-` a line) and its colours."""

    label: str
    face: str | tuple[float, ...] = "none"
    edge: str | tuple[float, ...] = "none"
    marker: str = "s"
    width: float = 1.0
    size: float = 10.0


def handle(key: Key) -> Line2D:
    if key.marker == "-":
        return Line2D(
            [],
            [],
            color=key.face,
            linestyle=key.edge if isinstance(key.edge, str) else "-",
            linewidth=key.width,
            label=key.label,
        )
    return Line2D(
        [],
        [],
        linestyle="none",
        marker=key.marker,
        markersize=key.size,
        markerfacecolor=key.face,
        markeredgecolor=key.edge,
        markeredgewidth=key.width,
        color=key.face,
        label=key.label,
    )


def add_legend(fig: Figure, keys: list[Key], ncol: int = 3, fontsize: float = 9, y: float = 0.0) -> Any:
    """A legend strip along the bottom of the figure (the caller leaves room for it)."""
    if not keys:
        return None
    return fig.legend(
        handles=[handle(k) for k in keys],
        loc="lower center",
        bbox_to_anchor=(0.5, y),
        ncol=min(ncol, len(keys)),
        fontsize=fontsize,
        frameon=False,
        handletextpad=0.4,
        columnspacing=1.2,
        borderaxespad=0.2,
    )
