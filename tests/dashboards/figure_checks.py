"""Checks on drawn figures, shared by the figure tests and the browser tests: every visible text
artist inside the figure, no two overlapping, and a legend present."""

from __future__ import annotations

from itertools import combinations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text


def text_boxes(fig: Figure) -> list[tuple[str, object]]:
    """(text, window extent) of every visible, non-empty text artist after a real draw."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    hidden = _undrawn_tick_labels(fig)
    out = []
    for t in fig.findobj(Text):
        if t.get_visible() and t.get_text().strip() and t.get_alpha() != 0 and id(t) not in hidden:
            out.append((t.get_text(), t.get_window_extent(renderer)))
    return out


def _undrawn_tick_labels(fig: Figure) -> set[int]:
    """Tick labels outside an axis' view interval stay `visible` but are never drawn."""
    hidden: set[int] = set()
    for ax in fig.axes:
        for axis in ax._axis_map.values():  # noqa: SLF001 - matplotlib keeps drawn ticks private
            drawn = {id(x) for t in axis._update_ticks() for x in (t.label1, t.label2)}  # noqa: SLF001
            hidden |= {
                id(x)
                for t in axis.get_major_ticks() + axis.get_minor_ticks()
                for x in (t.label1, t.label2)
                if id(x) not in drawn
            }
    return hidden


def overlapping_texts(fig: Figure, pad: float = 0.0) -> list[tuple[str, str]]:
    boxes = text_boxes(fig)
    return [
        (a, b)
        for (a, ba), (b, bb) in combinations(boxes, 2)
        if ba.width and bb.width and ba.padded(-pad).overlaps(bb.padded(-pad))
    ]


def clipped_texts(fig: Figure) -> list[str]:
    """Texts that leave the figure (what shows as `20.C`)."""
    w, h = fig.bbox.width, fig.bbox.height
    return [t for t, b in text_boxes(fig) if b.x0 < -0.5 or b.y0 < -0.5 or b.x1 > w + 0.5 or b.y1 > h + 0.5]


def legend_labels(fig: Figure) -> list[str]:
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    return [t.get_text() for lg in legends for t in lg.get_texts()]
