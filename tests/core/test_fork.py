"""A fork taken mid-run, played forward, equals its world played forward, and leaves it untouched.

Every world is played with influence agents whose decisions mix deferring and random legal
actions (drawn per actor and round, so the same on every copy: `testing.steered_rows`); a control
world that is never forked gives the rows both must reproduce: metrics, snapshot and audit, every round.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import mesa
import pytest
from mesa.discrete_space import CellAgent, OrthogonalMooreGrid
from pydantic import BaseModel, ConfigDict

from mam_bench import model_ids
from mam_bench.adapter import MesaWorld
from mam_bench.registry import get_world, world_names
from mam_bench.scoring import Scoring
from mam_bench.testing import fork_equivalence, steered_rows
from mam_bench.world import fork

BEFORE, AFTER = 3, 4


def new_world(cls: Any, seed: int = 3) -> Any:
    probe = cls(cls.Params(), seed=seed)
    ids = probe._default_influence_ids(min(3, len(probe.actor_ids())))
    return cls(cls.Params(), seed=seed, influence_ids=ids, role="treatment")


# --- a user's Mesa model that adds agents as it runs (Mesa numbers them per model) ----------------
class Seedling(CellAgent):
    def __init__(self, model: mesa.Model, cell: Any):
        super().__init__(model)
        self.cell = cell
        self.height = 0

    def step(self) -> None:
        self.height += int(self.random.random() < 0.6)
        if self.height == 2 and self.model.rng.random() < 0.5:
            empty = [c for c in self.cell.neighborhood if c.is_empty]
            if empty:
                Seedling(self.model, self.random.choice(empty))


class Garden(mesa.Model):
    def __init__(self, size: int = 6, seed: int | None = None):
        super().__init__(seed=seed)
        self.grid = OrthogonalMooreGrid((size, size), torus=True, capacity=1, random=self.random)
        for cell in self.random.sample(list(self.grid.all_cells), 5):
            Seedling(self, cell)

    def step(self) -> None:
        self.agents.shuffle_do("step")


class Grow(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    grow: bool = False


class SteeredGarden(MesaWorld):
    name = "garden"
    model_class = Garden
    rounds = 10
    Action = Grow
    scoring = Scoring(metric="plants", objectives={"more": +1})

    def apply(self, agent: Seedling, action: Grow) -> None:
        agent.height += int(action.grow)

    def outcome(self) -> dict[str, float]:
        return {"plants": len(self.model.agents)}


@pytest.mark.parametrize("cls", [*(get_world(n) for n in world_names()), SteeredGarden], ids=lambda c: c.name)
def test_fork_played_forward_equals_its_world(cls: Any) -> None:
    expected = steered_rows(new_world(cls), BEFORE + AFTER)[BEFORE:]
    assert len(expected) == AFTER
    world = new_world(cls)
    steered_rows(world, BEFORE)
    twin = fork(world)
    assert twin is not world and twin.round == world.round == BEFORE
    assert steered_rows(twin, AFTER) == expected  # the fork plays the future of its world
    assert steered_rows(world, AFTER) == expected  # and playing it changed nothing of the world


@pytest.mark.parametrize("cls", [get_world("voter"), get_world("schelling"), SteeredGarden], ids=lambda c: c.name)
def test_a_fork_before_the_first_round_plays_like_its_world(cls: Any) -> None:
    expected = steered_rows(new_world(cls), AFTER)
    world = new_world(cls)
    assert steered_rows(fork(world), AFTER) == expected
    assert steered_rows(world, AFTER) == expected


def test_fork_keeps_no_records_and_its_own_audit() -> None:
    world = new_world(get_world("pursuit"))
    steered_rows(world, 2)
    twin = fork(world)
    steered_rows(twin, 2)
    assert len(world.run.audit) == 2 * len(world.run.influence_ids)
    assert len(twin.run.audit) == 4 * len(world.run.influence_ids)
    assert len(world.datacollector.model_vars["score"]) == 3  # setup and two rounds, none of the fork's


def test_the_adapter_fork_numbers_new_agents_as_its_world() -> None:
    world = new_world(SteeredGarden)
    steered_rows(world, BEFORE)
    twin = fork(world)
    steered_rows(twin, 6)
    steered_rows(world, 6)
    assert len(world.model.agents) > 5  # agents were added after the fork
    assert sorted(a.unique_id for a in twin.model.agents) == sorted(a.unique_id for a in world.model.agents)


def test_check_world_catches_a_fork_that_drifts() -> None:
    class Drifting(SteeredGarden):
        def _forked(self, original: Any) -> None:
            super()._forked(original)
            self.seed += 1  # the fork's streams are not the world's

    assert fork_equivalence(Drifting, seed=0, rounds=6, influence=2, params={})
    assert fork_equivalence(SteeredGarden, seed=0, rounds=6, influence=2, params={}) == []


@pytest.mark.parametrize("name", ["civil_violence", "schelling", "voter", "pursuit"])
def test_a_dropped_fork_is_freed(name: str) -> None:
    """Nothing global holds a fork once its planner releases and drops it, as the oracle's rollouts
    do (Mesa caches neighbourhoods of every cell in one global cache; a fork's cells keep theirs in
    caches of their own; Mesa's id counters are released)."""
    world = new_world(get_world(name))
    steered_rows(world, 2)
    twin = fork(world)
    steered_rows(twin, 2)
    gone = weakref.ref(twin)
    model_ids.release(twin)
    del twin
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("name", ["pursuit", "transport"])
def test_a_swarm_fork_builds_the_mesa_grid_its_world_has(name: str) -> None:
    world = new_world(get_world(name))
    steered_rows(world, BEFORE)
    twin = fork(world)
    steered_rows(twin, AFTER)
    steered_rows(world, AFTER)

    def board(w: Any) -> list:
        cells = [(c.coordinate, tuple(a.actor_id for a in c.agents), bool(c.empty)) for c in w.grid.all_cells]
        return [a.cell.coordinate if a.cell else None for a in w.swarm] + sorted(cells)

    assert board(twin) == board(world)
