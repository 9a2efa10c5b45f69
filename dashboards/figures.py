"""matplotlib figures shared by the app and the GIF export: one board, and both runs' metrics.

Layouts are fixed (tight_layout costs 50-300 ms a frame); tests/dashboards/test_figures.py checks
that no text artist overlaps another or leaves the figure.
"""

from __future__ import annotations

import math
from typing import Any

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from mam_bench.dashboards.legend import Key, add_legend
from mam_bench.dashboards.renderers import renderer_for

#: one colour per run, used by every chart and caption
RUN_COLOURS = {"reference": "#4a4a4a", "treatment": "#d62728"}
LEGEND_COLUMNS = 3
LEGEND_ROW_INCHES = 0.24


def board_keys(row: dict[str, Any], info: Any) -> list[Key]:
    legend = getattr(renderer_for(info.world), "legend", None)
    return list(legend(row, info)) if callable(legend) else []


def board_figure(row: dict[str, Any], info: Any, title: str, size: float = 5.0, dpi: int = 100) -> Figure:
    """A square board with its title above and the legend of its symbols below."""
    keys = board_keys(row, info)
    legend_h = (math.ceil(len(keys) / LEGEND_COLUMNS) * LEGEND_ROW_INCHES + 0.08) if keys else 0.0
    title_h = 0.34
    height = size + legend_h + title_h
    fig = Figure(figsize=(size, height), dpi=dpi)
    pad = 0.04 * size
    ax = fig.add_axes((pad / size, (legend_h + pad / 2) / height, 1 - 2 * pad / size, (size - pad) / height))
    renderer_for(info.world).draw_board(ax, row, info)
    ax.set_title(title, fontsize=11)
    add_legend(fig, keys, ncol=LEGEND_COLUMNS, fontsize=8, y=0.0)
    return fig


def is_share(values: list[float]) -> bool:
    """A share (drawn 0-100 %): every value in [0, 1] and at least one strictly between integers."""
    return bool(values) and min(values) >= 0 and max(values) <= 1 and any(v != int(v) for v in values)


def metrics_figure(state: Any, width: float = 10.0, height: float = 3.4, dpi: int = 100) -> Figure:
    """Primary metric solid, secondary dotted; reference and treatment keep their colour.

    A share gets a 0-100 % axis; a count or score gets a plain axis from its own range, and a
    secondary metric on another scale gets its own right-hand axis.
    """
    info = state.info
    fig = Figure(figsize=(width, height), dpi=dpi)
    ax = fig.add_axes((0.07, 0.15, 0.86, 0.66))
    series: dict[str, dict[str, list[float]]] = {}
    for metric in (info.primary, info.secondary):
        if not metric:
            continue
        series[metric] = {
            run: [_num(r["metrics"].get(metric)) for r in rows]
            for run, rows in (("reference", state.reference), ("treatment", state.treatment))
        }
    primary_values = [v for ys in series.get(info.primary, {}).values() for v in ys if v == v]
    share = is_share(primary_values)
    handles = []
    axes = {info.primary: ax}
    secondary = info.secondary if info.secondary in series else None
    if secondary:
        sec_values = [v for ys in series[secondary].values() for v in ys if v == v]
        if is_share(sec_values) != share or not share:
            axes[secondary] = ax.twinx()
            axes[secondary].set_position(ax.get_position())
            # the twin shares the x axis: its own x tick labels would be drawn over the first's
            axes[secondary].tick_params(axis="x", which="both", labelbottom=False, labeltop=False)
        else:
            axes[secondary] = ax
    for metric, style in ((info.primary, "-"), (secondary, ":")):
        if not metric:
            continue
        target = axes[metric]
        for run, ys in series[metric].items():
            xs = list(range(len(ys)))
            label = f"{run}: {metric}" + (" (dotted)" if style == ":" else "")
            (line,) = target.plot(
                xs, ys, style, color=RUN_COLOURS[run], linewidth=2, marker="." if len(xs) < 40 else None, label=label
            )
            handles.append(line)
        values = [v for ys in series[metric].values() for v in ys if v == v]
        _fit_axis(target, values, metric)
    ax.set_xlim(0, max(info.horizon, 1))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=10))
    ax.set_xlabel("completed rounds", fontsize=9)
    ax.tick_params(labelsize=8)
    ax.grid(alpha=0.3)
    if secondary and axes[secondary] is not ax:
        axes[secondary].tick_params(labelsize=8)
    if axes.get(secondary) is ax:
        ax.set_ylabel(f"{info.primary} (solid), {secondary} (dotted)", fontsize=9)
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False)
    return fig


def _num(v: Any) -> float:
    return float("nan") if v is None else float(v)


def _fit_axis(ax: Any, values: list[float], metric: str) -> None:
    ax.set_ylabel(metric, fontsize=9)
    if is_share(values):
        ax.set_ylim(0, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        return
    if values:
        lo, hi = min(min(values), 0.0), max(values)
        span = (hi - lo) or 1.0
        ax.set_ylim(lo - 0.05 * span * (lo < 0), hi + 0.08 * span if hi > lo else lo + 1.0)
    if all(v == int(v) for v in values):
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
