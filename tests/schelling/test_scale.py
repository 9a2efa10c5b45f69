"""Schelling at scale: a run that would not fit is refused before anything is written, the Mesa
side is built only when asked (and then stands where the arrays say), and a board wider than one
view shows an influence agent a window around it, whose text parses back."""

from __future__ import annotations

import numpy as np

from mam_bench import limits
from mam_bench.cli import main
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.models.schelling.observe import VIEW, SchellingObservation
from mam_bench.records import read_jsonl
from mam_bench.registry import make_controller
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round


def test_a_board_that_would_not_fit_is_refused_before_any_write(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 300 * 2**20)
    out = tmp_path / "run"
    assert main(["run", "schelling", "--param", "size=1000", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: param.size: size=1000 needs about ") and "GB is available" in err, err
    assert not out.exists()


def test_the_mesa_side_is_built_when_asked_and_agrees_with_the_arrays() -> None:
    world = SchellingWorld(seed=4, size="40", influence_ids=[0, 1], role="treatment")
    for _ in range(3):
        play_round(world)
    assert world._grid is None  # three rounds played on arrays alone
    sat = world.satisfied_grid.ravel()
    assert len(world.agents) == world.params.n_agents
    for agent in world.agents:
        assert agent.cell.coordinate == divmod(int(world.pos[agent.actor_id]), world.size)
        assert agent.is_satisfied() == bool(sat[world.pos[agent.actor_id]]) == agent.satisfied
    play_round(world)  # and then kept in step
    for agent in world.agents:
        assert agent.cell.coordinate == divmod(int(world.pos[agent.actor_id]), world.size)


def test_a_wide_board_is_seen_through_a_window_around_the_agent() -> None:
    world = SchellingWorld(seed=2, size="60", influence_ids=[0, 1800], role="treatment")
    obs = world.observe(1800)
    assert len(obs.grid) == len(obs.groups) == VIEW and not obs.whole
    assert obs.view_cell(obs.row, obs.col) == (VIEW // 2, VIEW // 2)
    assert SchellingObservation.from_text(obs.to_text()) == obs
    flat = world.board.ravel()
    assert obs.vacancies() and all(flat[r * 60 + c] < 0 for r, c in obs.vacancies())
    for r, c in [(obs.row, obs.col), *obs.vacancies()]:
        assert obs.group_at(r, c) == (-1 if flat[r * 60 + c] < 0 else int(world.types[flat[r * 60 + c]]))
    assert obs.group_at((obs.row + VIEW) % 60, obs.col) is None  # beyond the window


def test_the_heuristic_steers_on_a_wide_board(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=1, controller="heuristic", rounds=3, params={"size": "60"})
    result = run_pair(spec, tmp_path, baselines=("stay", "mimic"))
    outcomes = {row["outcome"] for row in read_jsonl(tmp_path / "decisions.jsonl")}
    assert "accepted" in outcomes and outcomes <= {"accepted", "stay", "occupied", "collision"}, outcomes
    assert set(result["baselines"]) == {"stay", "mimic"}
    controller = make_controller("heuristic", SchellingWorld, "integrate")
    assert np.isfinite(result["lift"]) and controller.name == "heuristic"
