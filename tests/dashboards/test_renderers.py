"""Every registered world draws through its renderer; unknown worlds get the generic one."""

from __future__ import annotations

import numpy as np
import pytest
from mam_bench.dashboards.config import DashConfig, available_worlds, build_session
from mam_bench.dashboards.figures import board_figure, metrics_figure
from mam_bench.dashboards.session import PairInfo
from mam_bench.dashboards.worlds import renderer_for
from mam_bench.dashboards.worlds.schelling_board import grid_of, satisfied_grid


@pytest.mark.parametrize("world", available_worlds())
def test_world_draws(world: str) -> None:
    s = build_session(DashConfig(world=world, seed=1))
    s.step()
    board_figure(s.state.treatment[-1], s.state.info, "t").canvas.draw()
    metrics_figure(s.state).canvas.draw()


def test_generic_renderer_for_unknown_world() -> None:
    info = PairInfo("mystery", 0, "", 1, "m", None, (1,), {}, 3, "rule")
    fig = board_figure({"round": 0, "positions": [[0, 1], [2, 2]], "metrics": {}}, info, "x")
    fig.canvas.draw()
    assert renderer_for("mystery").__name__.endswith("generic")


def test_schelling_satisfaction_matches_the_world() -> None:
    from mam_bench.models.schelling.model import SchellingWorld

    w = SchellingWorld(seed=22)
    grid, types = grid_of(w.snapshot())
    sat = satisfied_grid(w.snapshot())
    mine = sorted(int(grid[r, c]) for r, c in zip(*np.nonzero((grid >= 0) & ~sat)))
    assert mine == sorted(aid for aid, a in w.residents.items() if not a.satisfied)
