"""`priority=turn|first`: under `turn` an influence claim is resolved at its own
slot in the round's reservation wave, under `first` (the pilot) before any ordinary agent reserves."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.schelling.draws import IsolatedDraws, rule_keys
from mam_bench.models.schelling.fast.array_rule import ordinary_phase
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.protocol import Decision
from mam_bench.runner import PairSpec, run_pair
from tests.support.cli import cli_in_process

SEED = 22


def _round0_reservations(seed: int, steered: tuple[int, ...]) -> list[tuple[float, int, int]]:
    """(order key, ordinary id, cell) of every round-0 reservation with `steered` held out of the
    rule, as the reference's own rule makes them (nothing claimed by influence agents)."""
    world = SchellingWorld(seed=seed)
    movable = np.ones(world.params.n_agents, dtype=bool)
    movable[list(steered)] = False
    plan = ordinary_phase(
        world.board, world.types, world.pos, movable, world.num, world.den, set(), IsolatedDraws(seed, 0)
    )
    return [(rule_keys(seed, 0, aid)[0], aid, dest) for aid, _, dest in plan.moves]


def _claim(seed: int, ia: int, cell: int, priority: str) -> tuple[SchellingWorld, list]:
    world = SchellingWorld(seed=seed, influence_ids=(ia,), role="treatment", priority=priority)
    r, c = divmod(cell, world.size)
    entries = world.resolve_round({ia: Decision(action={"row": r, "col": c})})
    return world, [e for e in entries if e.actor_id == ia]


def _split_by_key(seed: int, ia: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """One reservation by an ordinary agent before `ia`'s slot and one after it: (id, cell) each."""
    key = rule_keys(seed, 0, ia)[0]
    moves = _round0_reservations(seed, (ia,))
    before = [(aid, cell) for k, aid, cell in moves if k < key]
    after = [(aid, cell) for k, aid, cell in moves if k > key]
    assert before and after, "pick an influence agent with a key in the middle of the order"
    return before[-1], after[0]


def test_a_cell_reserved_earlier_in_the_wave_makes_the_claim_occupied():
    ia = 0
    (earlier, cell), _ = _split_by_key(SEED, ia)
    world, [entry] = _claim(SEED, ia, cell, "turn")
    assert entry.outcome == "occupied" and entry.detail == f"reserved earlier by {earlier}"
    assert int(world.pos[ia]) != cell and int(world.pos[earlier]) == cell
    # the pilot's order accepts the very same claim: it goes before every ordinary agent
    world, [entry] = _claim(SEED, ia, cell, "first")
    assert entry.outcome == "accepted" and int(world.pos[ia]) == cell and int(world.pos[earlier]) != cell


def test_a_claim_earlier_in_the_wave_takes_the_cell_from_a_later_ordinary_agent():
    ia = 0
    _, (later, cell) = _split_by_key(SEED, ia)
    world, [entry] = _claim(SEED, ia, cell, "turn")
    assert entry.outcome == "accepted"
    assert int(world.pos[ia]) == cell and int(world.pos[later]) != cell


def test_influence_agents_on_one_cell_are_ordered_by_their_keys_not_their_ids():
    """The earlier key wins and the other collides, even when it has the higher id."""
    ids = (0, 1, 2, 3, 150, 151)
    keys = {aid: rule_keys(SEED, 0, aid)[0] for aid in ids}
    # `high` has the higher id but the earlier key
    low, high = next((a, b) for a in ids for b in ids if b > a and keys[b] < keys[a])
    world = SchellingWorld(seed=SEED, influence_ids=(low, high), role="treatment")
    # a cell nobody reserves before both claims: check against the rule's own round-0 wave
    taken = {c for k, _, c in _round0_reservations(SEED, (low, high)) if k < keys[high]}
    cell = next(int(c) for c in np.flatnonzero(world.board.ravel() < 0) if int(c) not in taken)
    r, c = divmod(cell, world.size)
    move = {"row": r, "col": c}
    entries = {e.actor_id: e for e in world.resolve_round({low: Decision(action=move), high: Decision(action=move)})}
    assert entries[high].outcome == "accepted" and int(world.pos[high]) == cell
    assert entries[low].outcome == "collision" and entries[low].detail == f"reserved earlier by {high}"


@pytest.mark.parametrize("priority", ["turn", "first"])
@pytest.mark.parametrize("streams", ["isolated", "pilot"])
@pytest.mark.parametrize("seed", [0, 22])
def test_null_steering_is_exact_under_both_priorities(priority, streams, seed):
    """Rule-driven influence agents defer to their ordinary slot: the treatment is the reference."""
    params = {"priority": priority, "streams": streams, "rounds": "8"}
    result = run_pair(PairSpec.build(world="schelling", seed=seed, controller="rule", params=params))
    assert result["lift"] == 0.0 and result["delta"] == 0.0
    counts = ("ordinary_moves", "influence_moves")  # the last round's moves: the held reference has none
    same = {k: v for k, v in result["treatment"]["final"].items() if k not in counts}
    assert same == {k: v for k, v in result["reference"]["compared"].items() if k not in counts}


def test_stay_makes_no_claim_so_both_priorities_play_the_same_pair():
    runs = [
        run_pair(PairSpec.build(world="schelling", seed=SEED, controller="stay", params={"priority": p}))
        for p in ("turn", "first")
    ]
    assert runs[0]["treatment"]["final"] == runs[1]["treatment"]["final"]
    assert runs[0]["lift"] == runs[1]["lift"]


def test_mimic_and_the_heuristic_differ_between_priorities():
    """The parameter has teeth: claims that win under `first` lose cells under `turn`."""
    for policy in ("mimic", "heuristic"):
        turn, first = (
            run_pair(PairSpec.build(world="schelling", seed=SEED, controller=policy, params={"priority": p}))
            for p in ("turn", "first")
        )
        assert turn["treatment"]["audit"]["outcomes"].get("occupied", 0) > 0
        assert turn["treatment"]["audit"]["identity_holds"] and first["treatment"]["audit"]["identity_holds"]
        assert turn["treatment"]["final"] != first["treatment"]["final"], policy


def test_pilot_priority_first_reproduces_the_published_seed_22_lifts():
    """`streams=pilot priority=first`, seed 22: the figures the README published before `turn`."""
    params = {"streams": "pilot", "priority": "first"}
    got = {
        p: round(run_pair(PairSpec.build(world="schelling", seed=22, controller=p, params=params))["lift"], 4)
        for p in ("heuristic", "stay", "mimic")
    }
    assert got == {"heuristic": 0.4222, "stay": 0.3597, "mimic": 0.3370}


def test_the_observation_and_the_prompt_say_how_moves_resolve():
    from mam_bench.models.schelling.observe import SchellingObservation
    from mam_bench.models.schelling.prompts import RESOLUTION

    for priority in ("turn", "first"):
        world = SchellingWorld(seed=SEED, influence_ids=(0,), role="treatment", priority=priority)
        obs = world.observe(0)
        assert obs.priority == priority
        assert SchellingObservation.from_text(obs.to_text()) == obs
    assert "lowest id" in RESOLUTION["first"] and "lowest id" not in RESOLUTION["turn"]


def test_a_bad_priority_is_refused_before_anything_runs(tmp_path, capsys):
    out = tmp_path / "run"
    code, err = cli_in_process(capsys, "run", "schelling", "--param", "priority=last", "--out", str(out))
    assert code == 2 and err.startswith("error: param.priority: ")
    assert not out.exists()
