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


def lift_figure(labels: list[str], mean: list[float], low: list[float], high: list[float], title: str):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(4.0, 0.9 * len(labels) + 1.5), 3.6), dpi=150)
    ax = fig.add_axes((0.16, 0.3, 0.8, 0.6))
    xs = list(range(len(labels)))
    faces = ["#bdbdbd" if m >= 0 else "white" for m in mean]
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
    ax.set_xticks(xs, labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("mean lift (95% CI)")
    ax.set_title(title, fontsize=10)
    return fig


def write_lift_figures(lifts: pd.DataFrame, out_dir: Path) -> list[Path]:
    """One PNG and one SVG per world and metric (the report's panels); returns the files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for (world, metric), group in lifts.groupby(["world", "metric"], sort=False):
        labels = [f"{c} / {ctl}" for c, ctl in zip(group["case"], group["controller"])]
        values = [[float(v) for v in group[c]] for c in ("mean", "ci_low", "ci_high")]
        fig = lift_figure(labels, *values, title=f"{world}: lift on {metric}")
        stem = out_dir / f"lift-{_slug(str(world))}-{_slug(str(metric))}"
        for ext in ("png", "svg"):
            fig.savefig(f"{stem}.{ext}")
            written.append(Path(f"{stem}.{ext}"))
    return written
