"""The report's lift charts as files for a paper: PNG and SVG, drawn in black and greys with
hatching for negative lifts, so they read the same printed in greyscale."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


def lift_figure(
    labels: list[str], mean: list[float], low: list[float], high: list[float], title: str, owner: list[int]
):
    """Bars with 95% CI whiskers, one group per case: its own bar (darker) and its placebos
    (`stay`, `mimic`, light grey) beside it; negative lifts hatched. The layout makes room for
    every label (none clipped)."""
    from matplotlib.figure import Figure

    placebo = [o >= 0 for o in owner]
    groups = sum(1 for p in placebo if not p)
    fig = Figure(figsize=(max(4.5, 0.5 * len(labels) + 0.4 * groups + 1.8), 4.2), dpi=150, layout="constrained")
    ax = fig.add_subplot()
    xs, x = [], -1.0
    for p in placebo:
        x += 1.0 if p or not xs else 1.6  # a gap before each case's group
        xs.append(x)
    faces = ["#e0e0e0" if p else "#8c8c8c" if m >= 0 else "white" for m, p in zip(mean, placebo)]
    bars = ax.bar(xs, mean, color=faces, edgecolor="black", linewidth=0.8)
    for bar, m in zip(bars, mean):
        if m < 0:
            bar.set_hatch("///")
    err = [
        [m - lo if not math.isnan(lo) else 0 for m, lo in zip(mean, low)],
        [hi - m if not math.isnan(hi) else 0 for m, hi in zip(mean, high)],
    ]
    ax.errorbar(xs, mean, yerr=err, fmt="none", ecolor="black", capsize=4, linewidth=1)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(xs, labels, rotation=30, ha="right", rotation_mode="anchor", fontsize=8)
    for tick, p in zip(ax.get_xticklabels(), placebo):
        tick.set_fontstyle("italic" if p else "normal")
    ax.set_ylabel("mean lift (95% CI)")
    ax.set_title(title + ("\n(each case, then its placebos in light grey)" if any(placebo) else ""), fontsize=10)
    return fig


def write_lift_figures(lifts: pd.DataFrame, out_dir: Path, placebos: pd.DataFrame | None = None) -> list[Path]:
    """One PNG and one SVG per world and metric (the report's panels, placebos beside each case);
    returns the files."""
    import pandas as pd

    from mam_bench.experiment.charts import panel_bars
    from mam_bench.experiment.stats import PLACEBO_COLUMNS

    placebos = pd.DataFrame(columns=PLACEBO_COLUMNS) if placebos is None else placebos
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for (world, metric), group in lifts.groupby(["world", "metric"], sort=False):
        labels, values, owner = panel_bars(group, placebos)
        fig = lift_figure(labels, *values, title=f"{world}: lift on {metric}", owner=owner)
        stem = out_dir / f"lift-{_slug(str(world))}-{_slug(str(metric))}"
        for ext in ("png", "svg"):
            fig.savefig(f"{stem}.{ext}")
            written.append(Path(f"{stem}.{ext}"))
    return written
