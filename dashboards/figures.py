"""matplotlib figures shared by the app and the GIF export: one board, and both runs' metrics."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from mam_bench.dashboards.worlds import renderer_for

#: one colour per run, used by every chart and caption
RUN_COLOURS = {"reference": "#4a4a4a", "treatment": "#d62728"}


def board_figure(row: dict[str, Any], info: Any, title: str, size: float = 4.2) -> Figure:
    fig = Figure(figsize=(size, size), dpi=80)
    ax = fig.add_subplot()
    renderer_for(info.world).draw_board(ax, row, info)
    ax.set_title(title, fontsize=10)
    fig.subplots_adjust(left=0.03, right=0.97, bottom=0.03, top=0.92)  # fixed: tight_layout costs ~50 ms a frame
    return fig


def metrics_figure(state: Any) -> Figure:
    """Primary metric solid, secondary dotted; reference and treatment keep their colour."""
    info = state.info
    fig = Figure(figsize=(6.4, 3.0), dpi=80)
    ax = fig.add_subplot()
    values: list[float] = []
    for run, rows in (("reference", state.reference), ("treatment", state.treatment)):
        xs = list(range(len(rows)))
        for metric, style in ((info.primary, "-"), (info.secondary, ":")):
            if not metric:
                continue
            ys = [r["metrics"].get(metric) for r in rows]
            ys = [float("nan") if y is None else float(y) for y in ys]
            values += [y for y in ys if y == y]
            ax.plot(xs, ys, style, color=RUN_COLOURS[run], linewidth=2, marker="." if len(xs) < 40 else None,
                    label=f"{run} {metric}")
    if values and min(values) >= 0 and max(values) <= 1:
        ax.set_ylim(0, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlim(0, max(info.horizon, 1))
    ax.set_xlabel("completed rounds")
    ax.legend(fontsize=7, loc="best", ncol=2)
    ax.grid(alpha=0.3)
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.17, top=0.95)  # fixed: tight_layout costs ~0.3 s a frame
    return fig
