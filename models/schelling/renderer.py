"""Schelling renderer: boards with red rings on influence actors and dotted dissatisfied agents,
plus the per-agent local-share pillar field for a chosen round (docs/worlds/schelling.md, "The dashboard")."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from mam_bench.dashboards.grid_axes import ring_cells, square_frame
from mam_bench.dashboards.legend import Key
from mam_bench.dashboards.ui import component, solara
from mam_bench.models.schelling.board_image import (
    BACKGROUND,
    COLOURS,
    DIM,
    DISSATISFIED_MARK,
    board_rgba,
    grid_of,
    local_share,
    satisfied_grid,
    threshold_of,
)

#: the ring on influence actors (on the white vacancies and both group colours)
INFLUENCE_RING = "#d62728"


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    """Groups, their dimmed (dissatisfied) shades, vacancies and the ring of influence agents."""
    dim = [tuple(DIM * np.array(c) + (1 - DIM) * np.array(BACKGROUND)) for c in COLOURS]
    keys = [
        Key("group A, satisfied", COLOURS[0]),
        Key("group B, satisfied", COLOURS[1]),
        Key("vacancy", BACKGROUND, "#888888", width=0.5),
        Key("group A, dissatisfied (dot)", dim[0], DISSATISFIED_MARK, width=1.2),
        Key("group B, dissatisfied (dot)", dim[1], DISSATISFIED_MARK, width=1.2),
    ]
    if info.influence_ids:
        keys.append(Key("influence agent (ring)", BACKGROUND, INFLUENCE_RING, marker="o", width=1.6, size=9))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    size = int(row["size"])
    ax.imshow(board_rgba(row), interpolation="nearest")
    grid, _ = grid_of(row)
    unhappy_r, unhappy_c = np.nonzero((grid >= 0) & ~satisfied_grid(row))
    if len(unhappy_r):  # a dot, so dissatisfaction reads without telling tints apart
        ax.scatter(unhappy_c, unhappy_r, s=(220 / size) ** 2 * 0.12, c=[DISSATISFIED_MARK], marker="o", linewidths=0)
    pos = row["positions"]
    ids = [i for i in info.influence_ids if i < len(pos)]
    # the same ids are masked in both runs, so both boards ring them
    ring_cells(ax, [divmod(int(pos[i]), size) for i in ids], size, INFLUENCE_RING)
    square_frame(ax, size)


def pillar_figure(row: dict[str, Any], info: Any, elev: float = 35, azim: float = -60) -> Figure:
    """One pillar per ordinary agent, height = local same-group share; rings mark influence actors."""
    grid, types = grid_of(row)
    share = local_share(grid, types)
    tau = float(threshold_of(row))
    influence = set(info.influence_ids)
    fig = Figure(figsize=(6.4, 5.2), dpi=80)
    ax = fig.add_subplot(projection="3d")
    rows, cols = np.nonzero(grid >= 0)
    keep = [(r, c) for r, c in zip(rows, cols) if int(grid[r, c]) not in influence and not np.isnan(share[r, c])]
    norm = TwoSlopeNorm(vmin=0.0, vcenter=min(max(tau, 1e-6), 1 - 1e-6), vmax=1.0)
    if keep:
        rr = np.array([r for r, _ in keep], dtype=float)
        cc = np.array([c for _, c in keep], dtype=float)
        h = np.array([share[r, c] for r, c in keep])
        import matplotlib

        colours = matplotlib.colormaps["coolwarm_r"](norm(h))
        ax.bar3d(
            cc,
            rr,
            np.zeros_like(h),
            0.8,
            0.8,
            np.maximum(h, 0.01),
            color=colours,
            shade=False,
            edgecolor=(0, 0, 0, 0.25),
            linewidth=0.3,
        )
    ring = [divmod(int(row["positions"][i]), int(row["size"])) for i in influence if i < len(row["positions"])]
    if ring:
        ax.scatter(
            [c + 0.4 for _, c in ring],
            [r + 0.4 for r, _ in ring],
            [0] * len(ring),
            s=40,
            facecolors="none",
            edgecolors="black",
            linewidths=1.2,
        )
    ax.set_zlim(0, 1)
    ax.set_xlabel("col")
    ax.set_ylabel("row")
    ax.set_zlabel("local same share")
    ax.view_init(elev=elev, azim=azim)
    ax.set_title(f"round {row['round']}: local share (colour centre = threshold {tau:.3g})", fontsize=9)
    return fig


@component
def Extras(state: Any, version: int = 0) -> None:
    """The pillar field of the treatment (or reference) at a chosen round."""
    chosen, set_chosen = solara.use_state(-1)
    run, set_run = solara.use_state("treatment")
    elev, set_elev = solara.use_state(35)
    azim, set_azim = solara.use_state(-60)
    shown, set_shown = solara.use_state(False)
    rows = state.treatment if run == "treatment" else state.reference
    last = len(rows) - 1
    r = last if chosen < 0 or chosen > last else chosen
    with solara.Card("Pillar field: per-agent local same-group share", classes=["mam-pillars"]):
        # a 3-D figure costs ~0.2 s per frame: drawn only on request, so Play stays fluid
        solara.Switch(label="show the pillar field", value=shown, on_value=set_shown, classes=["mam-pillars-switch"])
        if not shown:
            return
        with solara.Row():
            solara.Select("run", values=["treatment", "reference"], value=run, on_value=set_run)
            solara.SliderInt("round", value=r, min=0, max=max(last, 1), on_value=set_chosen)
            solara.SliderInt("elevation", value=elev, min=0, max=90, on_value=set_elev)
            solara.SliderInt("azimuth", value=azim, min=-180, max=180, on_value=set_azim)
        solara.FigureMatplotlib(pillar_figure(rows[r], state.info, elev, azim), format="png")
