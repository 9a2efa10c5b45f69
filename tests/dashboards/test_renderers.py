"""Every registered world draws through its renderer; unknown worlds get the generic one."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.dashboards.config import DashConfig, available_worlds, build_session
from mam_bench.dashboards.figures import board_figure, metrics_figure
from mam_bench.dashboards.renderers import renderer_for
from mam_bench.dashboards.session import PairInfo
from mam_bench.models.schelling.board_image import grid_of, satisfied_grid
from mam_bench.snapshots import as_lists


@pytest.mark.parametrize("world", available_worlds())
def test_world_draws(world: str) -> None:
    s = build_session(DashConfig(world=world, seed=1))
    s.step()
    board = board_figure(s.state.treatment[-1], s.state.info, "t")
    board.canvas.draw()
    # a spatial world draws its agents; a non-spatial one (Boltzmann) says how many are off the board
    drawn = any(ax.has_data() or ax.texts or ax.get_title() for ax in board.axes)
    assert drawn, f"{world}: the board drew nothing"
    metrics = metrics_figure(s.state)
    metrics.canvas.draw()
    assert any(ax.get_lines() for ax in metrics.axes), f"{world}: the metrics chart has no line"


def test_a_world_that_does_not_import_fails_loudly(monkeypatch) -> None:
    import mam_bench.dashboards.config as config

    def broken(name: str):
        raise ImportError(f"{name} is broken")

    monkeypatch.setattr(config, "get_world", broken)
    with pytest.raises(ImportError):
        config.available_worlds()


def test_generic_renderer_for_unknown_world() -> None:
    info = PairInfo("mystery", 0, "", 1, "m", None, (1,), {}, 3, "rule")
    fig = board_figure({"round": 0, "positions": [[0, 1], [2, 2]], "metrics": {}}, info, "x")
    fig.canvas.draw()
    assert renderer_for("mystery").__name__.endswith("generic_renderer")


def test_schelling_satisfaction_matches_the_world() -> None:
    from mam_bench.models.schelling.model import SchellingWorld

    w = SchellingWorld(seed=22)
    grid, types = grid_of(as_lists(w.snapshot()))
    sat = satisfied_grid(as_lists(w.snapshot()))
    mine = sorted(int(grid[r, c]) for r, c in zip(*np.nonzero((grid >= 0) & ~sat)))
    assert mine == sorted(aid for aid, a in w.residents.items() if not a.satisfied)
