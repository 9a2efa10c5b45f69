"""The pilot's rules on small hand-made boards; every expected value follows from reading its code
(the activation slots 0.135 for seed 0 and 0.726 for seed 3 are the ones its own tests name)."""

from __future__ import annotations

import asyncio
from math import exp

import numpy as np
import pytest

from mam_bench.models.civil_violence_cascade.draws import bounded, pilot_rng
from mam_bench.models.civil_violence_cascade.model import REVOLUTION, CivilViolenceCascade
from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.protocol import Decision
from mam_bench.world import play_round


def world(seed: int = 0, influence: tuple[int, ...] = (), **params) -> CivilViolenceCascade:
    """A 10x10 board with 20 citizens and 16 police (ids 20-35)."""
    p = CascadeParams(**{"size": 10, "citizen_density": 0.2, "police_density": 0.16, **params})
    return CivilViolenceCascade(p, seed=seed, influence_ids=influence)


def clear(w: CivilViolenceCascade) -> None:
    """Every citizen in jail for long, the police in rows 4 and 5 (out of sight of row 0)."""
    for i in range(w.n_citizens):
        w.location[i], w.jail[i], w.active[i], w.preference[i] = None, 99, False, 0.0
    for j, i in enumerate(range(w.n_citizens, w.n_citizens + w.n_police)):
        w.location[i] = (4 + j // 10, j % 10)


def test_the_pilots_activation_slots():
    assert pilot_rng(0, 0, "citizen", 0, "activation").random() == pytest.approx(0.135, abs=5e-4)
    assert pilot_rng(3, 0, "citizen", 0, "activation").random() == pytest.approx(0.726, abs=5e-4)


@pytest.mark.parametrize(("seed", "expected"), [(0, True), (3, False)])
def test_activation_counts_the_active_neighbour_twice(seed, expected):
    """A = 2, I = 1, threshold 4, preference 0: sigmoid(0 + 4 - 4) = 0.5 against the slot."""
    w = world(seed, threshold=4.0)
    clear(w)
    w.location[0] = (0, 0)
    w.location[1], w.jail[1], w.active[1] = (0, 1), 0, True
    play_round(w)
    assert w.active[0] is expected


@pytest.mark.parametrize(("seed", "expected"), [(0, True), (3, False)])
def test_arrest_risk_uses_c_over_a_unrounded(seed, expected):
    """One officer and one active citizen in sight: risk 1 - exp(-2.3/2), so p = exp(-1.15) = 0.317;
    a rounded C/A (round(0.5) = 0) would make p = 1 and activate seed 3 too."""
    w = world(seed, threshold=-1000.0)
    clear(w)
    w.location[0] = (0, 0)
    w.location[1], w.jail[1], w.active[1] = (0, 1), 0, True
    w.location[w.n_citizens] = (2, 2)
    assert exp(-1.15) == pytest.approx(0.3166, abs=1e-4)
    play_round(w)
    assert w.active[0] is expected


def test_bounded_is_numpys_integers():
    for s in range(200):
        for n in (1, 2, 3, 7, 100, 2**31 + 5):
            a, b = np.random.default_rng(s), np.random.default_rng(s)
            assert [bounded(a, n) for _ in range(3)] == [int(b.integers(n)) for _ in range(3)]


def _phases(w: CivilViolenceCascade) -> tuple[list, list]:
    """The board at the start of the step and after the citizens settled (seen at the first police
    turn of a police-role world)."""
    start = list(w.location)
    seen: list = []

    async def decide(ids: list[int]) -> list[Decision]:
        if not seen:
            seen.extend(w.location)
        return [Decision.follow_rule() for _ in ids]

    asyncio.run(w.aplay_round(decide))
    return start, seen


@pytest.mark.parametrize("seed", range(6))
def test_each_phase_moves_adjacent_onto_cells_empty_at_its_start(seed):
    w = CivilViolenceCascade(CascadeParams(size=12, controlled_role="police"), seed=seed, influence_ids=(80,))
    for _ in range(3):
        start, middle = _phases(w)
        end = list(w.location)
        for before, after, movers in (
            (start, middle, range(w.n_citizens)),
            (middle, end, range(w.n_citizens, len(end))),
        ):
            taken = {c for c in before if c is not None}
            for i in movers:
                if before[i] is not None and after[i] is not None and after[i] != before[i]:
                    assert after[i] not in taken  # never a cell vacated in the same phase
                    assert after[i] in w.neighbourhood(before[i], 1)
        placed = [c for c in end if c is not None]
        assert len(placed) == len(set(placed))


def test_police_arrest_an_adjacent_active_citizen_who_leaves_the_board():
    """Influence citizen 0 stays active at (0,0); officer 20 at (0,1) is walled in by police, so it
    stays and arrests the one active citizen beside it (or a walling officer beside it does)."""
    w = world(0, influence=(0,), max_jail=3)
    clear(w)
    w.location[0], w.jail[0] = (0, 0), 0
    walls = [(9, 0), (9, 1), (9, 2), (0, 2), (1, 0), (1, 1), (1, 2), (9, 9), (0, 9), (1, 9)]
    for i, cell in zip(range(20, 36), [(0, 1), *walls], strict=False):
        w.location[i] = cell
    play_round(w, {0: Decision(action={"active": True})})
    assert w.location[0] is None and w.active[0] is True and 0 <= w.jail[0] <= 3
    assert w.metrics()["participation_all"] == 1.0  # jailed counts


def test_release_at_the_start_of_the_citizen_phase_returns_a_quiet_citizen():
    w = world(0, threshold=1000.0)
    clear(w)
    w.location[0], w.jail[0], w.active[0] = (0, 0), 0, False
    w.jail[1], w.active[1] = 0, True  # term over: comes back this step
    w.jail[2], w.active[2] = 2, True  # serves a step
    play_round(w)
    assert w.location[1] is not None and w.active[1] is False
    assert w.location[2] is None and w.jail[2] == 1 and w.active[2] is True
    assert w.metrics()["participation"] == pytest.approx(18 / 20)  # the 18 still jailed; 0 and 1 are quiet


def test_revolution_stops_the_world_and_masks_the_influence_citizens():
    w = world(0, influence=(0, 1), threshold=-1000.0, police_density=0.0)
    assert w.metrics()["participation"] == 0.0
    play_round(w, {0: Decision(action={"active": False}), 1: Decision(action={"active": False})})
    m = w.metrics()
    assert m["participation"] == 1.0 and m["revolution"] == 1.0  # the two quiet ones are masked
    assert m["participation_all"] == pytest.approx(18 / 20)
    assert w.run.status == REVOLUTION and w._done


def test_influence_claims_any_free_cell_and_fail_whole():
    w = world(0, influence=(0, 1, 2), threshold=1000.0)
    clear(w)
    for i, cell in ((0, (0, 0)), (1, (9, 9)), (2, (2, 2))):
        w.location[i], w.jail[i] = cell, 0
    w.jail[2] = 5
    w.location[2] = None
    entries = play_round(
        w,
        {
            0: Decision(action={"active": True, "row": 7, "col": 7}),  # far away: allowed
            1: Decision(action={"active": True, "row": 7, "col": 7}),  # the same cell, claimed later or earlier
            2: Decision(action={"active": True}),  # jailed: a turn for the board only
        },
    )
    by_id = {e.actor_id: e for e in entries}
    assert sorted(o.outcome for o in (by_id[0], by_id[1])) == ["accepted", "collision"]
    loser = 0 if by_id[0].outcome == "collision" else 1
    assert w.active[loser] is False  # the whole action failed: activity kept
    assert w.location[1 - loser] == (7, 7) and w.active[1 - loser] is True
    assert by_id[2].outcome == "stay" and by_id[2].detail == "jailed"
    held = w.location[w.n_citizens]
    occupied = play_round(w, {0: Decision(action={"row": held[0], "col": held[1]}), 1: Decision(action={})})
    assert {e.actor_id: e.outcome for e in occupied}[0] == "occupied"


def _officer_turn(target_beside: bool) -> tuple[CivilViolenceCascade, str]:
    """Citizen 0 turns active (nobody in sight, threshold -1000) and steps; influence officer 20,
    three cells off, then targets it from where it stands or from a free cell beside it."""
    w = world(0, influence=(20,), threshold=-1000.0, controlled_role="police")
    clear(w)
    w.location[0], w.jail[0] = (0, 0), 0
    w.location[20] = (0, 3)

    async def decide(ids: list[int]) -> list[Decision]:
        (aid,) = ids  # asked at its own turn
        r, c = w.location[0]
        action = {"target_row": r, "target_col": c}
        if target_beside:
            free = set(w.observe(aid).vacancies)
            action["row"], action["col"] = next(x for x in w.neighbourhood((r, c), 1) if x in free)
        return [Decision(action=action)]

    entries = asyncio.run(w.aplay_round(decide))
    return w, entries[0].outcome


def test_an_influence_officer_arrests_only_next_to_where_it_ends():
    w, outcome = _officer_turn(target_beside=False)
    assert outcome == "invalid" and w.location[0] is not None and w.active[0] is True
    w, outcome = _officer_turn(target_beside=True)
    assert outcome == "accepted" and w.location[0] is None and w.location[20] != (0, 3)
