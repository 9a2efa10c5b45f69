"""Landscapes as a reader expects: one vacancy gives a line with SD bars, two axes a heatmap with
its colour bar; the 3-D surface only on request."""

from __future__ import annotations

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg

from mam_bench.dashboards.landscape import landscape_figure, load_landscape


def _csv(tmp_path, thresholds, vacancies):
    rows = []
    for t in thresholds:
        for v in vacancies:
            for seed, sat in enumerate((0.5, 0.7, 0.9)):
                rows.append(
                    {
                        "threshold": t,
                        "vacancy": v,
                        "seed": seed,
                        "final_satisfaction": sat,
                        "final_homophily": 0.8,
                        "status": "equilibrium",
                    }
                )
    path = tmp_path / "l.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return load_landscape(path)


def test_one_vacancy_is_a_line_with_sd_bars(tmp_path) -> None:
    cells = _csv(tmp_path, ["1/2", "3/4", "6/7"], ["0.25"])
    fig = landscape_figure(cells, ("3/4", "0.25"))
    FigureCanvasAgg(fig).draw()
    (ax,) = fig.axes
    assert ax.name == "rectilinear"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1/2", "3/4", "6/7"]
    bars = ax.containers[0]  # the errorbar container: the line and its SD bars
    assert len(bars.lines[0].get_xdata()) == 3 and bars.has_yerr
    assert "one value" in ax.get_title()


def test_two_axes_are_a_heatmap_with_a_colour_bar(tmp_path) -> None:
    cells = _csv(tmp_path, ["1/2", "3/4"], ["0.1", "0.25"])
    fig = landscape_figure(cells, ("3/4", "0.25"))
    FigureCanvasAgg(fig).draw()
    heat, bar = fig.axes
    assert heat.images and heat.images[0].get_array().shape == (2, 2)
    assert "mean final satisfaction" in bar.get_ylabel()
    assert all(ax.name != "3d" for ax in fig.axes)
