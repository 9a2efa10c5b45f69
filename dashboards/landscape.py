"""The reference landscape (a world's all-rule outcome over a grid of its parameters): a line with
SD bars when only one axis varies, a heatmap with its colour legend otherwise; the rotatable 3-D surface on request.

matplotlib rather than plotly: it is already installed and needs no front-end assets offline.
Rotation is by elevation/azimuth sliders; hover is replaced by a cell picker whose values are
read out beside the surface and marked on it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import solara
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from mam_bench.params import parse_fraction


def load_landscape(path: Path | str) -> pd.DataFrame:
    """Mean, SD and status counts of final satisfaction per (threshold, vacancy) cell."""
    df = pd.read_csv(path, dtype={"threshold": str, "vacancy": str})
    df["t"] = [float(parse_fraction(x)) for x in df["threshold"]]
    df["v"] = [float(parse_fraction(x)) for x in df["vacancy"]]
    g = df.groupby(["threshold", "vacancy", "t", "v"], as_index=False)
    out = g.agg(
        mean_sat=("final_satisfaction", "mean"),
        sd_sat=("final_satisfaction", "std"),
        mean_oeh=("final_homophily", "mean"),
        runs=("seed", "count"),
        equilibrium=("status", lambda s: int((s == "equilibrium").sum())),
    )
    return out.sort_values(["t", "v"]).reset_index(drop=True)


def surface_figure(cells: pd.DataFrame, chosen: tuple[str, str] | None, elev: float, azim: float) -> Figure:
    ts = sorted(cells["t"].unique())
    vs = sorted(cells["v"].unique())
    z = np.full((len(vs), len(ts)), np.nan)
    for row in cells.itertuples():
        z[vs.index(row.v), ts.index(row.t)] = row.mean_sat
    fig = Figure(figsize=(7, 5.2), dpi=80)
    ax = fig.add_subplot(projection="3d")
    tt, vv = np.meshgrid(ts, vs)
    if len(ts) > 1 and len(vs) > 1:
        ax.plot_surface(tt, vv, z, cmap="viridis", vmin=0, vmax=1, edgecolor="k", linewidth=0.3, alpha=0.9)
    else:
        ax.scatter(tt.ravel(), vv.ravel(), z.ravel(), c=z.ravel(), cmap="viridis", vmin=0, vmax=1, s=60)
    if chosen is not None:
        hit = cells[(cells["threshold"] == chosen[0]) & (cells["vacancy"] == chosen[1])]
        if len(hit):
            h = hit.iloc[0]
            ax.scatter([h.t], [h.v], [h.mean_sat], color="red", s=90, depthshade=False)
            ax.plot([h.t, h.t], [h.v, h.v], [0, h.mean_sat], color="red", linewidth=1.5)
    ax.set_xlabel("threshold")
    ax.set_ylabel("vacancy")
    ax.set_zlabel("mean final satisfaction")
    ax.set_zlim(0, 1)
    ax.view_init(elev=elev, azim=azim)
    return fig


def _fraction_labels(cells: pd.DataFrame, key: str, text: str) -> list[str]:
    return list(cells.sort_values(key).drop_duplicates(key)[text])


def landscape_figure(cells: pd.DataFrame, chosen: tuple[str, str] | None) -> Figure:
    """Flat views a reader expects: one varying axis gives mean final satisfaction against it with
    SD bars; two give a heatmap (threshold across, vacancy up) with a colour bar."""
    ts, vs = sorted(cells["t"].unique()), sorted(cells["v"].unique())
    fig = Figure(figsize=(9, 5.6), dpi=90)
    hit = None
    if chosen is not None:
        sel = cells[(cells["threshold"] == chosen[0]) & (cells["vacancy"] == chosen[1])]
        hit = sel.iloc[0] if len(sel) else None
    if len(ts) == 1 or len(vs) == 1:
        # along the axis that varies (threshold when neither does)
        along, label, fixed = ("v", "vacancy", "threshold") if len(ts) == 1 < len(vs) else ("t", "threshold", "vacancy")
        ax = fig.add_axes((0.09, 0.13, 0.86, 0.75))
        line = cells.sort_values(along)
        ax.errorbar(
            line[along],
            line["mean_sat"],
            yerr=line["sd_sat"].fillna(0),
            color="black",
            marker="o",
            capsize=4,
            linewidth=1.5,
            label="mean over seeds, bars: SD",
        )
        if hit is not None:
            ax.plot(
                [hit[along]],
                [hit.mean_sat],
                "o",
                markersize=12,
                markerfacecolor="none",
                markeredgecolor="#d62728",
                markeredgewidth=2,
                label="chosen cell",
            )
        ax.set_xticks(list(line[along]), _fraction_labels(cells, along, label))
        ax.set_xlabel(label)
        ax.set_ylabel("mean final satisfaction")
        ax.set_ylim(0, 1.05)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left", fontsize=9, frameon=False)
        ax.set_title(f"{fixed} {cells[fixed].iloc[0]} (one value): mean final satisfaction by {label}", fontsize=10)
        return fig
    z = np.full((len(vs), len(ts)), np.nan)
    for row in cells.itertuples():
        z[vs.index(row.v), ts.index(row.t)] = row.mean_sat
    ax = fig.add_axes((0.09, 0.13, 0.74, 0.78))
    image = ax.imshow(z, origin="lower", cmap="cividis", vmin=0, vmax=1, aspect="auto", interpolation="nearest")
    ax.set_xticks(range(len(ts)), _fraction_labels(cells, "t", "threshold"), rotation=45, fontsize=8)
    ax.set_yticks(range(len(vs)), _fraction_labels(cells, "v", "vacancy"), fontsize=8)
    ax.set_xlabel("threshold")
    ax.set_ylabel("vacancy")
    if hit is not None:
        ax.add_patch(
            Rectangle(
                (ts.index(hit.t) - 0.5, vs.index(hit.v) - 0.5), 1, 1, fill=False, edgecolor="#d62728", linewidth=2
            )
        )
    bar = fig.colorbar(image, cax=fig.add_axes((0.86, 0.13, 0.03, 0.78)))
    bar.set_label("mean final satisfaction (chosen cell outlined)")
    return fig


@solara.component
def LandscapeView(path: str) -> None:
    cells = solara.use_memo(lambda: load_landscape(path), [path])
    thresholds = list(dict.fromkeys(cells["threshold"]))
    vacancies = list(dict.fromkeys(cells.sort_values("v")["vacancy"]))
    t, set_t = solara.use_state("3/4" if "3/4" in thresholds else thresholds[0])
    v, set_v = solara.use_state("1/4" if "1/4" in vacancies else vacancies[0])
    elev, set_elev = solara.use_state(28)
    azim, set_azim = solara.use_state(-130)
    three_d, set_three_d = solara.use_state(False)
    with solara.Card(f"Reference landscape: {Path(path).name}", classes=["mam-landscape"]):
        with solara.Row():
            solara.Checkbox(label="3-D surface", value=three_d, on_value=set_three_d)
            if three_d:
                solara.SliderInt("elevation", value=elev, min=0, max=90, on_value=set_elev)
                solara.SliderInt("azimuth", value=azim, min=-180, max=180, on_value=set_azim)
            solara.Select("threshold", values=thresholds, value=t, on_value=set_t)
            solara.Select("vacancy", values=vacancies, value=v, on_value=set_v)
        hit = cells[(cells["threshold"] == t) & (cells["vacancy"] == v)]
        if len(hit):
            h = hit.iloc[0]
            sd = "n/a" if pd.isna(h.sd_sat) else f"{h.sd_sat:.3f}"
            solara.Text(
                f"cell ({t}, {v}): mean satisfaction {h.mean_sat:.3f}, SD {sd}, mean OEH {h.mean_oeh:.3f}, "
                f"{h.runs} seeds, {h.equilibrium} at equilibrium",
                classes=["mam-landscape-cell"],
            )
        figure = surface_figure(cells, (t, v), elev, azim) if three_d else landscape_figure(cells, (t, v))
        solara.FigureMatplotlib(figure, format="png")
