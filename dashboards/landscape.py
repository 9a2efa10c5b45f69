"""The reference landscape (spec/schelling.md section 6) as a rotatable 3-D surface.

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


@solara.component
def LandscapeView(path: str) -> None:
    cells = solara.use_memo(lambda: load_landscape(path), [path])
    thresholds = list(dict.fromkeys(cells["threshold"]))
    vacancies = list(dict.fromkeys(cells.sort_values("v")["vacancy"]))
    t, set_t = solara.use_state("3/4" if "3/4" in thresholds else thresholds[0])
    v, set_v = solara.use_state("1/4" if "1/4" in vacancies else vacancies[0])
    elev, set_elev = solara.use_state(28)
    azim, set_azim = solara.use_state(-130)
    with solara.Card(f"Reference landscape: {Path(path).name}", classes=["mam-landscape"]):
        with solara.Row():
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
        solara.FigureMatplotlib(surface_figure(cells, (t, v), elev, azim), format="png")
