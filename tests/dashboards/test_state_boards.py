"""Boards that show state: adapter worlds colour agents by their declared state, name the colours
in the legend, draw network edges, and two runs that diverge give two different boards."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from mam_bench.dashboards.figures import board_figure, board_keys
from mam_bench.dashboards.generic_renderer import PALETTE, StateColours
from mam_bench.runner import PairSpec, run_pair


def _rows(tmp_path, world: str, seed: int, run: str):
    return [json.loads(line) for line in (tmp_path / f"{run}.jsonl").read_text().splitlines()]


def _pixels(row, info) -> np.ndarray:
    fig = board_figure(row, info, "board")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3]


def _count(img: np.ndarray, colour: str) -> int:
    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(img.astype(int) - rgb).sum(axis=2) == 0).sum())


@pytest.mark.parametrize(
    ("world", "seed", "labels"),
    [
        ("voter", 4, {"opinion 0", "opinion 1"}),
        ("civil_violence", 3, {"condition active", "condition quiet", "condition cop", "condition jailed"}),
        ("boltzmann", 3, {"wealth <= 0", "wealth 1", "wealth 2", "wealth 3-4", "wealth > 4"}),
    ],
)
def test_example_boards_show_state_and_differ_once_diverged(world, seed, labels, tmp_path) -> None:
    result = run_pair(PairSpec.build(world=world, seed=seed, policy="heuristic", influence=3), tmp_path)
    ref, tre = _rows(tmp_path, world, seed, "reference"), _rows(tmp_path, world, seed, "treatment")
    info = SimpleNamespace(world=world, influence_ids=tuple(result["influence_ids"]))
    keys = {k.label for k in board_keys(tre[0], info)}
    assert labels <= keys and "influence agent (ringed)" in keys
    colours = StateColours(ref[0])
    state_colours = {colours.colour(a["board_state"]) for a in ref[0]["agents"]}
    # round 0: the same states in the same places, pixel for pixel, rings aside
    assert all(_count(_pixels(ref[0], info), c) == _count(_pixels(tre[0], info), c) for c in state_colours)
    diverged = next(r for r, (a, b) in enumerate(zip(ref, tre)) if a["agents"] != b["agents"])
    a, b = _pixels(ref[diverged], info), _pixels(tre[diverged], info)
    assert any(_count(a, c) != _count(b, c) for c in state_colours | set(PALETTE))


def test_voter_board_draws_its_network() -> None:
    from mam_bench.models.voter.model import VoterWorld

    row = VoterWorld(seed=0).snapshot()
    assert len(row["edges"]) == 120  # 60 nodes, k = 4
    fig = board_figure(row, SimpleNamespace(world="voter", influence_ids=()), "t")
    assert len(fig.axes[0].get_lines()) == 120


def test_undeclared_state_is_the_first_public_attribute_and_text_colours_are_stable() -> None:
    row = {
        "agents": [{"id": 1, "xy": [0, 0], "board_state": "S"}, {"id": 2, "xy": [1, 0], "board_state": "R"}],
        "state": {"attribute": "state", "values": ["I", "S"]},
    }
    only_s = {**row, "agents": row["agents"][:1]}
    assert StateColours(row).colour("S") == StateColours(only_s).colour("S") == PALETTE[1]
    assert StateColours(row).colour("R") not in (PALETTE[0], PALETTE[1])  # a later state gets a free colour
    assert {k.label for k in StateColours(row).keys()} == {"state R", "state S"}


def test_crafting_board_fits_its_edge_sites() -> None:
    """cave, grove and ruins sit on the map's edge: their names and discs stay inside the board."""
    from mam_bench.dashboards.config import DashConfig, build_session
    from mam_bench.models.crafting.renderer import site_positions

    s = build_session(DashConfig(world="crafting", seed=1))
    s.step()
    fig = board_figure(s.state.treatment[-1], s.state.info, "t")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    ax = fig.axes[0]
    frame = ax.get_window_extent()
    names = {t.get_text(): t.get_window_extent() for t in ax.texts}
    for site in ("cave", "grove", "ruins"):
        box = names[site]
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, site
    at = site_positions(s.state.treatment[-1])
    discs = [c for c in ax.collections if len(c.get_offsets()) == 1 and tuple(c.get_offsets()[0]) in at.values()]
    for disc in discs:
        box = disc.get_window_extent()
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
    assert len(discs) >= len(at)
