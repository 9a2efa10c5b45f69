"""`rule_action` for Schelling (the `mimic` baseline): the move the rule would make for that actor now."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.schelling.draws import IsolatedDraws
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round


@pytest.mark.parametrize("seed", [3, 22, 31])
def test_first_mover_of_the_reference_does_what_rule_action_says(seed):
    """Nobody reserves before the first agent in the order, so its real move is the rule action."""
    world = SchellingWorld(seed=seed)
    sat = world.satisfied_grid.ravel()[world.pos]
    unhappy = np.flatnonzero(~sat)
    first = int(IsolatedDraws(seed, 0).order(unhappy)[0])
    predicted = world.rule_action(first)
    play_round(world)
    r, c = divmod(int(world.pos[first]), world.size)
    assert predicted == {"row": r, "col": c}


def test_satisfied_agents_stay_and_asking_changes_nothing():
    world = SchellingWorld(seed=22)
    happy = [a for a in world.actor_ids() if world.satisfied_grid.ravel()[world.pos[a]]]
    assert happy and all(world.rule_action(a) == {"stay": True} for a in happy[:20])
    before = world.board.copy()
    moves = [world.rule_action(a) for a in world.actor_ids()]
    assert (world.board == before).all()
    assert moves == [world.rule_action(a) for a in world.actor_ids()]  # same stream, same answer


@pytest.mark.parametrize("streams", ["isolated", "pilot"])
def test_mimic_runs_and_its_audit_identity_holds(streams):
    result = run_pair(PairSpec.build(world="schelling", seed=22, controller="mimic", params={"streams": streams}))
    audit = result["treatment"]["audit"]
    assert audit["identity_holds"]
    assert audit["accepted"] > 0  # unhappy influence agents really move through the influence path
