"""`greedy`: a one-round lookahead over every legal move, privileged like the oracle."""

from __future__ import annotations

import pytest

from mam_bench.errors import ConfigError
from mam_bench.registry import CONTROLLERS, get_world, make_controller
from mam_bench.runner import PairSpec, run_pair

#: three worlds: two that list their legal moves (pursuit, Schelling) and one that does not (voter)
CASES = [
    ("pursuit", "hinder", {"size": 10, "agents": 6}),
    ("schelling", "integrate", {"size": 8}),
    ("voter", "spread", {}),
]


def lift(world: str, objective: str, params: dict, policy: str, rounds: int, influence: int, seed: int = 3) -> dict:
    spec = PairSpec.build(
        world=world,
        seed=seed,
        params=params,
        objective=objective,
        controller=policy,
        influence=influence,
        rounds=rounds,
    )
    return run_pair(spec)


@pytest.mark.parametrize(("world", "objective", "params"), CASES, ids=[c[0] for c in CASES])
def test_one_agent_one_round_greedy_is_the_best_single_move(world, objective, params) -> None:
    """With one influence agent and one round, greedy tries the null action, the rule's (defer) and,
    where the world lists them, every legal action, so it ends at or above `rule` (0), `stay`, and
    (in a menu world) `random`, whose move is one of those it tried."""
    greedy = lift(world, objective, params, "greedy", 1, 1)
    assert greedy["treatment"]["audit"]["identity_holds"]
    assert greedy["lift"] >= 0
    rivals = ["stay", "random"] if world != "voter" else ["stay"]
    for rival in rivals:
        other = lift(world, objective, params, rival, 1, 1)
        assert greedy["lift"] >= other["lift"], (rival, other["lift"], greedy["lift"])


@pytest.mark.parametrize(("world", "objective", "params"), CASES, ids=[c[0] for c in CASES])
def test_greedy_plays_whole_runs_through_the_influence_path(tmp_path, world, objective, params) -> None:
    """Its recorded decisions, replayed with no lookahead, give the same treatment."""
    spec = dict(world=world, seed=4, params=params, objective=objective, influence=2, rounds=3)
    played = run_pair(PairSpec.build(**spec, controller="greedy"), tmp_path / "greedy")
    replayed = run_pair(
        PairSpec.build(**spec, controller="replay", controller_options={"replay": str(tmp_path / "greedy")}),
        tmp_path / "replay",
    )
    assert replayed["treatment"]["final"] == played["treatment"]["final"]
    assert replayed["lift"] == played["lift"]


def test_greedy_is_registered_and_checks_its_options() -> None:
    assert "greedy" in CONTROLLERS
    world = get_world("voter")
    with pytest.raises(ConfigError) as bad:
        make_controller("greedy", world, "spread", {"lookahead": 2})
    assert bad.value.field == "lookahead"
    line = make_controller("greedy", world, "spread", {"candidates": 5}).options_line()
    assert "5 random candidates" in line
