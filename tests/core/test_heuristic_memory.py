"""Every world's heuristic decides from the request alone: a fresh heuristic asked the same
requests answers as the one that has played every round so far. The oracle scores the heuristic
as a tail from any round with a fresh instance, so a heuristic with memory would be a tail the
oracle's live play does not reproduce (crafting's `inequality` heuristic cycled over makers by
memory and left the oracle below a tail: goblin_clearing, seed 501, 15 rounds)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request
from mam_bench.registry import get_world, make_controller, part_of, world_names
from mam_bench.runner import PairSpec, run_pair

CASES = [
    (name, objective)
    for name in world_names()
    if part_of(get_world(name), "heuristic")
    for objective in get_world(name).scoring.objectives
]


class FreshCheck(Controller):
    """Plays the heuristic; asks a fresh one the same requests and keeps every difference."""

    name = "heuristic"

    def __init__(self, world_cls: Any, objective: str):
        self.world_cls, self.objective_name = world_cls, objective
        self.played = make_controller("heuristic", world_cls, objective, {})
        self.differences: list[tuple[int, Any, Any]] = []
        self.calls = 0

    def bind(self, world_name: str, objective: str, seed: int) -> None:
        super().bind(world_name, objective, seed)
        self.played.bind(world_name, objective, seed)

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        fresh = make_controller("heuristic", self.world_cls, self.objective_name, {})
        fresh.bind(self.world_name, self.objective, self.seed)
        expected = await fresh.decide(requests)
        got = await self.played.decide(requests)
        self.calls += 1
        self.differences += [(r.round, g, e) for r, g, e in zip(requests, got, expected) if g != e]
        return got


@pytest.mark.parametrize(("name", "objective"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_the_heuristic_decides_from_the_request_alone(name: str, objective: str) -> None:
    check = FreshCheck(get_world(name), objective)
    spec = PairSpec.build(world=name, seed=501, objective=objective, influence=2, rounds=12)
    run_pair(spec, controller=check)
    assert check.calls >= 2
    assert check.differences == []


@pytest.mark.parametrize("task", ["forge_vanguard", "goblin_clearing"])
@pytest.mark.parametrize("objective", ["shortage", "inequality"])
def test_the_crafting_heuristics_decide_from_the_request_alone(task: str, objective: str) -> None:
    """The two crafting heuristics that remembered what they had asked, on both v1 tasks."""
    check = FreshCheck(get_world("crafting"), objective)
    spec = PairSpec.build(
        world="crafting", seed=501, params={"task": task}, objective=objective, influence=2, rounds=30
    )
    run_pair(spec, controller=check)
    assert check.calls >= 2
    assert check.differences == []
