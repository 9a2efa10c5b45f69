"""rule=pilot_v2, the pilot's current Schelling rule: its starting board follows from its placement
formula alone, null steering stays exact, and our own rule's records do not see the new options."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.errors import ConfigError
from mam_bench.models.schelling.draws import HashedDraws
from mam_bench.models.schelling.landscape import reference_outcome
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.records import read_rounds
from mam_bench.runner import PairSpec, run_pair

RECORDS = ("reference.jsonl", "treatment.jsonl")
CASE = {"size": 20, "threshold": "7/10", "vacancy": "0.15", "rule": "pilot_v2", "vision": 1}


def pilot_initial_oeh(seed: int, size: int, vacant: int, replaced: int) -> float:
    """The pilot's placement, written from its formula with numpy only: agent i (first half group
    one, second half group two) on cell i of default_rng(seed).permutation(size**2); edges between
    scored agents (the replaced: the lowest ids of each half) counted once each on the torus."""
    n = size * size - vacant
    cells = np.random.default_rng(seed).permutation(size * size)[:n]
    kinds = np.repeat([1, 2], n // 2)
    scored = np.ones(n, dtype=bool)
    scored[[*range(replaced // 2), *range(n // 2, n // 2 + replaced // 2)]] = False
    grid = np.zeros(size * size, dtype=np.int64)
    grid[cells[scored]] = kinds[scored]
    grid = grid.reshape(size, size)
    same = total = 0
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        other = np.roll(grid, (-dr, -dc), axis=(0, 1))
        edge = (grid > 0) & (other > 0)
        total += int(edge.sum())
        same += int((edge & (grid == other)).sum())
    return same / total


def test_the_pilots_default_case_starts_on_its_own_board():
    world = SchellingWorld(seed=10002, influence_ids=[*range(8), *range(170, 178)], role="treatment", **CASE)
    expected = pilot_initial_oeh(10002, 20, 60, 16)
    assert world.metrics()["oeh"] == pytest.approx(expected, abs=1e-12)
    assert round(expected, 4) == 0.4943  # the figure the pilot reports for this case
    ours = SchellingWorld(seed=10002, influence_ids=[*range(8), *range(170, 178)], role="treatment", size=20,
                          threshold="7/10", vacancy="0.15")  # fmt: skip
    assert round(ours.metrics()["oeh"], 4) != 0.4943


@pytest.mark.parametrize("seed", [0, 7])
def test_null_steering_is_exact(tmp_path, seed):
    params = {**CASE, "size": 12, "threshold": "3/4", "vacancy": "1/4", "rounds": 6}
    result = run_pair(PairSpec.build(world="schelling", seed=seed, controller="rule", params=params), tmp_path)
    assert result["lift"] == 0.0 and result["delta"] == 0.0
    assert result["params"]["rule"] == "pilot_v2" and result["params"]["vision"] == 1
    ref, treat = ([row["positions"] for row in read_rounds(tmp_path, f)] for f in RECORDS)
    assert ref[:7] == treat[:7] and len(treat) == 7


def test_the_replaced_ids_take_their_turns_first():
    draws = HashedDraws(seed=5, step=3, first_ids=(0, 1, 10, 11), n_agents=20)
    order = draws.order(np.arange(20)).tolist()
    assert sorted(order[:4]) == [0, 1, 10, 11] and sorted(order) == list(range(20))
    assert draws.order(np.array([2, 11, 15])).tolist() == [a for a in order if a in (2, 11, 15)]


def test_a_mover_moves_only_to_a_strictly_better_visible_cell():
    """Every move of a pilot_v2 round ends within vision of its origin."""
    world = SchellingWorld(seed=3, role="reference", **{**CASE, "size": 12, "vacancy": "1/4"})
    before = world.pos.copy()
    world.step()
    moved = np.flatnonzero(world.pos != before)
    assert moved.size
    size = 12
    for aid in moved.tolist():
        (r0, c0), (r1, c1) = divmod(int(before[aid]), size), divmod(int(world.pos[aid]), size)
        dr, dc = abs(r0 - r1), abs(c0 - c1)
        assert max(min(dr, size - dr), min(dc, size - dc)) <= 1


def test_our_rule_records_leave_the_new_options_out():
    assert "rule" not in SchellingParams().as_json() and "vision" not in SchellingParams().as_json()


def test_pilot_v1_names_the_page_option():
    p = SchellingParams(rule="pilot_v1")
    assert (p.streams, p.priority) == ("pilot", "first")


@pytest.mark.parametrize(
    "params",
    [
        {"vision": 1},
        {"rule": "pilot_v2"},
        {"rule": "pilot_v1", "streams": "isolated"},
        {"rule": "pilot_v2", "vision": 1, "priority": "turn"},
        {"rule": "pilot_v2", "vision": 10, "size": 20},
        {"rule": "pilot_v2", "vision": 1, "size": 5, "vacancy": "6/25"},
        {"rule": "pilot_v2", "vision": 1, "max_rounds": 50},
    ],
)
def test_bad_combinations_are_refused(params):
    with pytest.raises(ValueError):
        SchellingParams(**params)


def test_the_landscape_kernel_refuses_pilot_v2():
    with pytest.raises(ConfigError):
        reference_outcome(SchellingParams(**CASE), 0)


def test_the_reference_stops_at_the_horizon_and_the_treatment_plays_it(tmp_path):
    """The pilot's ordinary world stops at rest or at max_steps; its controlled world plays max_steps
    even at rest; the lift compares their final states."""
    params = {**CASE, "size": 8, "threshold": "3/4", "vacancy": "1/4", "vision": 2}
    for rounds, seed in ((3, 7), (40, 7)):
        out = tmp_path / f"r{rounds}"
        spec = PairSpec.build(world="schelling", seed=seed, controller="stay", influence=4,
                              params={**params, "rounds": rounds})  # fmt: skip
        result = run_pair(spec, out)
        ref, treat = (read_rounds(out, f) for f in RECORDS)
        assert len(treat) == rounds + 1
        assert len(ref) == rounds + 1 if rounds == 3 else len(ref) < rounds + 1
        assert result["delta"] == treat[-1]["metrics"]["oeh"] - ref[-1]["metrics"]["oeh"]
