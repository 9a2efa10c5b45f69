"""The conservative count in the swarm worlds (docs/worlds/swarm.md, "Objectives"): `help` scores what the
ordinary agents do alone, `hinder` scores everyone, and the other count is reported beside it.

An influence agent's own light, body or delivery therefore never earns `help` anything, and
whatever it does itself (finishing a point, filling the square) only raises what `hinder` is
scored against.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mam_bench.models.swarm.flocking.model import FlockingWorld
from mam_bench.models.swarm.params import TASKS
from mam_bench.models.swarm.pursuit.model import PursuitWorld
from mam_bench.models.swarm.synchronization.model import SynchronizationWorld
from mam_bench.protocol import Decision
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round


@pytest.mark.parametrize("task", TASKS)
def test_help_scores_the_ordinary_agents_and_hinder_everyone(task):
    cls = get_world(task)
    assert cls.scoring.metric_for("help") == "ordinary_score"
    assert cls.scoring.metric_for("hinder") == "score"
    res = run_pair(PairSpec.build(world=task, seed=1, controller="stay", objective="help", params={"rounds": "6"}))
    assert res["metric"] == "ordinary_score" and "score" in res["outcomes"]  # the other count beside it
    res = run_pair(PairSpec.build(world=task, seed=1, controller="stay", objective="hinder", params={"rounds": "6"}))
    assert res["metric"] == "score" and "ordinary_score" in res["outcomes"]


def _sync(lights: list[bool], masked: list[int]) -> SynchronizationWorld:
    """Every agent dictated (all are influence agents); `masked` are the ones the count leaves out."""
    n = len(lights)
    w = SynchronizationWorld(
        SynchronizationWorld.Params(agents=n), seed=0, influence_ids=range(n), mask_ids=masked, role="treatment"
    )
    w.lights[:] = lights
    return w


def test_sync_an_influence_light_neither_makes_nor_breaks_the_ordinary_point():
    # the ordinary agents (1-3) agree, the influence agent (0) does not and stays: the
    # all-agents score has no point, the ordinary count has one
    w = _sync([False, True, True, True], masked=[0])
    play_round(w, _acts(["STAY"] * 4))
    assert (w.score, w.ordinary_score) == (0, 1)
    # the influence agent makes the unanimity itself: everyone's score gains the point (which
    # is what `hinder` is scored against); the ordinary count gains nothing more
    play_round(w, _acts(["SWITCH", "STAY", "STAY", "STAY"]))
    assert (w.score, w.ordinary_score) == (1, 1)


def _acts(names: list[str]) -> dict[int, Decision]:
    return {i: Decision(action={"action": a}) for i, a in enumerate(names)}


@settings(max_examples=25, deadline=None)
@given(
    lights=st.lists(st.booleans(), min_size=5, max_size=5),
    ordinary=st.lists(st.lists(st.sampled_from(["STAY", "SWITCH"]), min_size=3, max_size=3), min_size=6, max_size=6),
    steered=st.lists(st.lists(st.sampled_from(["STAY", "SWITCH"]), min_size=2, max_size=2), min_size=6, max_size=6),
)
def test_sync_ordinary_count_ignores_every_influence_light(lights, ordinary, steered):
    """Whatever the influence agents (0, 1) do with their lights, the ordinary count is the one
    their lights being always off would give."""
    w = _sync(lights, masked=[0, 1])
    dark = _sync([False, False, *lights[2:]], masked=[0, 1])
    for mine, theirs in zip(ordinary, steered):
        play_round(w, _acts([*theirs, *mine]))
        play_round(dark, _acts(["STAY", "STAY", *mine]))
        assert w.ordinary_score == dark.ordinary_score
        assert w.metrics()["ordinary_score"] == float(dark.ordinary_score)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000), cells=st.lists(st.tuples(st.integers(1, 8), st.integers(1, 8)), min_size=2, max_size=2)
)
def test_flocking_ordinary_fit_ignores_where_the_influence_agents_stand(seed, cells):
    """Influence agents walked anywhere, into the square's slots or not, leave the ordinary
    agents' own shape fit as it was; the all-agents fit is what moves."""
    w = FlockingWorld(FlockingWorld.Params(), seed=seed, influence_ids=[0, 1], role="treatment")
    before = w._ordinary_dissimilarity()
    assert before == w.ordinary_init_dis
    w.pos[[0, 1]] = cells
    assert w._ordinary_dissimilarity() == before
    ordinary = w.pos[2:]
    assert before == FlockingWorld(FlockingWorld.Params(), seed=seed)._measure(ordinary)


def test_pursuit_an_influence_catch_counts_for_everyone_only():
    """Influence agents that close the cage themselves raise `score` (so `hinder` cannot gain by
    taking the prey away from the ordinary agents) and never `ordinary_score` (so `help` cannot
    gain by catching it themselves)."""
    w = PursuitWorld(PursuitWorld.Params(agents=4, rules="mam"), seed=0, influence_ids=range(4), mask_ids=[0, 1])
    w.place_prey((5, 5))
    w.pos[:] = [(4, 5), (6, 5), (5, 4), (5, 7)]
    play_round(w, {i: Decision(action={"action": a}) for i, a in enumerate(["STAY", "STAY", "STAY", "LEFT"])})
    assert (w.score, w.ordinary_score) == (1, 0)


def test_flocking_ending_the_episode_holds_the_best_fit():
    """A square completed by anyone ends the episode at the best possible all-agents score, so
    ending it early can only count against `hinder`."""
    w = FlockingWorld(FlockingWorld.Params(agents=8), seed=3, influence_ids=range(8), mask_ids=[0, 1])
    target = w.shape + np.array([2, 2])
    w.pos[:] = target
    play_round(w, {i: Decision(action={"action": "STAY"}) for i in range(8)})
    assert w._done and w.cur_dis == 0 and w.score == w.init_dis
