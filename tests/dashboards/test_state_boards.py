"""The adapter examples' boards show their agents' state: once the reference and the treatment
diverge, the two boards differ, and the legend names what the colours mean. The pair images go to
test-output/boards/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mam_bench.dashboards.config import DashConfig, build_session
from mam_bench.dashboards.figures import board_figure, board_keys

OUT = Path(__file__).resolve().parents[2] / "test-output" / "boards"


def pixels(fig: Figure) -> np.ndarray:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()


@pytest.mark.parametrize("world", ["voter", "boltzmann", "civil_violence"])
def test_boards_differ_once_the_runs_diverge_and_the_legend_names_the_states(world: str) -> None:
    s = build_session(DashConfig(world=world, seed=4, influence="3", controller="heuristic"))
    diverged = False
    for _ in range(40):
        s.step()
        ref, tre = s.state.reference[-1], s.state.treatment[-1]
        if ref["metrics"] != tre["metrics"]:
            diverged = True
            break
    assert diverged, f"{world}: the heuristic never moved the treatment away from the reference"
    info = s.state.info
    a = pixels(board_figure(ref, info, f"reference: round {ref['round']}"))
    b = pixels(board_figure(tre, info, f"treatment: round {tre['round']}"))
    body = slice(40, a.shape[0] - 120)  # leave out the titles (they differ anyway) and the legend
    assert a.shape == b.shape and (a[body] != b[body]).any(), f"{world}: the two boards look the same"
    labels = [k.label for k in board_keys(tre, info) if not k.label.startswith("influence agent")]
    # "<state attribute> <value>" per colour, and the ring of the influence agents beside them
    assert len(labels) >= 2 and len({label.split(" ")[0] for label in labels}) == 1, labels
    OUT.mkdir(parents=True, exist_ok=True)
    pair = Figure(figsize=(10, a.shape[0] / 100), dpi=100)
    for k, img in enumerate((a, b)):
        ax = pair.add_axes((k / 2, 0, 0.5, 1))
        ax.imshow(img)
        ax.set_axis_off()
    pair.savefig(OUT / f"{world}-pair.png")
