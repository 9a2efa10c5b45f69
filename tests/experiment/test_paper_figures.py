"""The report's lift charts as paper figures: PNG and SVG, drawn in greys only (a greyscale print
loses nothing), negative lifts hatched."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
from PIL import Image

from mam_bench.experiment.paper_figures import write_lift_figures


def test_lift_figures_are_png_and_svg_in_greys(tmp_path) -> None:
    lifts = pd.DataFrame(
        {
            "world": ["voter", "voter", "voter"],
            "metric": ["share"] * 3,
            "case": ["heuristic", "random", "stay"],
            "controller": ["heuristic", "random", "stay"],
            "mean": [0.5, -0.2, 0.0],
            "ci_low": [0.3, -0.4, math.nan],
            "ci_high": [0.7, 0.0, math.nan],
        }
    )
    files = write_lift_figures(lifts, tmp_path / "figs")
    assert sorted(f.name for f in files) == ["lift-voter-share.png", "lift-voter-share.svg"]
    ET.parse(tmp_path / "figs" / "lift-voter-share.svg")  # a well-formed SVG
    rgb = np.asarray(Image.open(tmp_path / "figs" / "lift-voter-share.png").convert("RGB")).astype(int)
    assert (rgb[..., 0] == rgb[..., 1]).all() and (rgb[..., 1] == rgb[..., 2]).all()  # no hue to lose
    assert len(np.unique(rgb)) > 2  # not blank
