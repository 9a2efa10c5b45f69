"""The fast paths play the residents' own rule bit for bit, on random states.

The reference is `Resident.decide` then `apply`, played through the AgentSet (`engine=agents`).
The array path (`fast.array_rule`, `engine=compiled`) must keep the same record rows, audit
entries, status and step count round by round, with influence agents deferring, staying, claiming
empty cells or failing; the compiled landscape kernel (`fast.kernel`, reference runs only) the same
boards round by round and the same end. Cases are drawn from fixed seeds.
On the runner's path `steps` and the DataCollector count the rounds played, also in references
that come to rest (Mesa's own `step()` loop counts its last call too, the one that finds the
board at rest: `mesa.batch_run` reads its final row by that count, tests/experiment/test_batch_run.py).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np

from mam_bench.errors import ConfigError
from mam_bench.models.schelling.fast.runs import fast_reference, fast_reference_outcome
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.protocol import Decision
from mam_bench.runner import PairSpec, prepare, run_reference, step_reference
from mam_bench.snapshots import as_lists
from mam_bench.world import play_round

CASES = 200
THRESHOLDS = ["0", "1/8", "1/4", "1/3", "3/8", "1/2", "4/7", "3/5", "2/3", "3/4", "4/5", "6/7", "1"]


def _params(rng: np.random.Generator, max_rounds: int) -> dict[str, str]:
    """A random valid setting: board size, vacancy, threshold (listed or any small fraction), rules."""
    while True:
        if rng.random() < 0.7:
            threshold = str(rng.choice(THRESHOLDS))
        else:
            q = int(rng.integers(1, 10))
            threshold = str(Fraction(int(rng.integers(0, q + 1)), q))
        params = {
            "size": str(int(rng.integers(3, 13))),
            "vacancy": str(Fraction(int(rng.integers(1, 17)), 20)),
            "threshold": threshold,
            "move_rule": str(rng.choice(["nearest_satisfactory", "nearest_satisfactory", "random_empty"])),
            "streams": str(rng.choice(["isolated", "pilot"])),
            "priority": str(rng.choice(["turn", "first"])),
            "max_rounds": str(max_rounds),
        }
        try:
            SchellingParams.from_strings(params)
        except ConfigError:
            continue
        return params


def _decisions(world: SchellingWorld, rng: np.random.Generator) -> dict[int, Decision]:
    """Every kind of influence proposal: rule, mimic, stay, claims on empty and occupied cells, errors."""
    flat = world.board.ravel()
    empty, full = np.flatnonzero(flat < 0), np.flatnonzero(flat >= 0)
    out: dict[int, Decision] = {}
    for aid in world.run.influence_ids:
        kind = int(rng.integers(8))
        if kind == 0:
            out[aid] = Decision.follow_rule()
        elif kind == 1:
            out[aid] = Decision(action=world.rule_action(aid))
        elif kind == 2:
            out[aid] = Decision(action={"stay": True})
        elif kind == 3:
            out[aid] = Decision.policy_error("unparseable")
        elif kind == 4:
            out[aid] = Decision(action={"row": world.size, "col": 0} if rng.random() < 0.5 else {"row": "x"})
        else:
            cells = full if kind == 5 else empty
            r, c = divmod(int(rng.choice(cells)), world.size)
            out[aid] = Decision(action={"row": r, "col": c})
    return out


def _outcome(play) -> object:
    """What a call returned, or the error it raised: tiny boards can leave no scored pair of
    neighbours, and both paths must then fail alike (the DataCollector's OEH is undefined)."""
    try:
        return play()
    except (ValueError, RuntimeError) as exc:
        return f"{type(exc).__name__}: {exc}"


def _record(world: SchellingWorld) -> str:
    """Everything a round leaves behind, as text (NaN compares equal to NaN here)."""
    try:
        metrics = world.metrics()
    except ValueError as exc:  # OEH undefined: no scored pair of neighbours
        metrics = str(exc)
    row = {
        "round": world.round,
        "status": world.run.status,
        "steps": world.steps,
        "collected": len(world.datacollector.get_model_vars_dataframe()),
        "metrics": metrics,
        "last_outcomes": world.last_outcomes,
        **as_lists(world.snapshot()),
    }
    return json.dumps(row, sort_keys=True, default=str)


def _agents_agree_with_the_arrays(world: SchellingWorld) -> None:
    """The residents stand where the arrays say and judge their own satisfaction the same way."""
    sat = world.satisfied_grid.ravel()
    for agent in world.agents:
        assert agent.cell.coordinate == divmod(int(world.pos[agent.actor_id]), world.size)
        assert agent.is_satisfied() == bool(sat[world.pos[agent.actor_id]]) == agent.satisfied


def test_the_array_path_plays_the_agents_rule_round_by_round():
    rng = np.random.default_rng(20251201)
    kinds: dict[str, int] = {}
    for case in range(CASES):
        params = _params(rng, max_rounds=int(rng.integers(1, 10)))
        seed = int(rng.integers(0, 100_000))
        n_agents = SchellingParams.from_strings(params).n_agents
        role = "reference" if case % 3 == 0 else "treatment"
        ids = () if role == "reference" else tuple(rng.choice(n_agents, int(rng.integers(1, min(7, n_agents))), False))
        fast = _outcome(lambda: SchellingWorld(seed=seed, influence_ids=ids, role=role, **params, engine="compiled"))
        agents = _outcome(lambda: SchellingWorld(seed=seed, influence_ids=ids, role=role, **params, engine="agents"))
        if isinstance(fast, str):  # no scored pair of neighbours at the start
            assert agents == fast
            kinds["undefined"] = kinds.get("undefined", 0) + 1
            continue
        assert fast.fast_path and not agents.fast_path
        assert _record(fast) == _record(agents)
        for _ in range(int(rng.integers(1, 9))):
            if role == "reference":
                moved = _outcome(lambda: step_reference(fast))
                assert _outcome(lambda: step_reference(agents)) == moved
            else:
                decisions = _decisions(fast, rng)
                moved = _outcome(lambda: play_round(fast, decisions))
                assert _outcome(lambda: play_round(agents, decisions)) == moved, (case, params, seed)
            if isinstance(moved, str):
                kinds["undefined"] = kinds.get("undefined", 0) + 1
                break
            assert _record(fast) == _record(agents), (case, params, seed)
            assert fast.steps == fast.round
            if fast._done:
                break
        _agents_agree_with_the_arrays(agents)
        kinds[fast.run.status] = kinds.get(fast.run.status, 0) + 1
        kinds.update({e.outcome: kinds.get(e.outcome, 0) + 1 for e in fast.run.audit})
    # the cases reached every way a round can end and every fate of a proposal
    for kind in (
        "equilibrium",
        "blocked",
        "running",
        "accepted",
        "occupied",
        "collision",
        "stay",
        "invalid",
        "out_of_bounds",
    ):
        assert kinds.get(kind, 0) > 0, (kind, kinds)


def test_the_landscape_kernel_plays_the_agents_rule_round_by_round():
    rng = np.random.default_rng(7)
    ends: dict[str, int] = {}
    for _ in range(CASES):
        params = _params(rng, max_rounds=int(rng.integers(1, 13)))
        seed = int(rng.integers(0, 100_000))
        spec = PairSpec.build(
            world="schelling", seed=seed, params={**params, "engine": "agents"}, controller="rule", influence=0
        )
        prep = prepare(spec)
        world, rows = run_reference(prep)
        status, rounds, board, _ = fast_reference(prep.params, seed)
        assert (status, rounds) == (world.run.status, world.round), (params, seed)
        np.testing.assert_array_equal(board, world.board)
        assert world.steps == world.round and len(world.datacollector.get_model_vars_dataframe()) == len(rows)
        for k, row in enumerate(rows[:-1]):
            _, _, board_k, _ = fast_reference(prep.params, seed, max_rounds=k)
            flat = board_k.ravel()
            assert np.flatnonzero(flat >= 0)[np.argsort(flat[flat >= 0])].tolist() == row["positions"]
        outcome = fast_reference_outcome(prep.params, seed)
        assert outcome["final_satisfaction"] == world.metrics()["satisfaction_all"]
        try:
            assert outcome["final_homophily"] == world.metrics()["oeh_all"]
        except ValueError:
            assert np.isnan(outcome["final_homophily"])
        ends[status] = ends.get(status, 0) + 1
    assert set(ends) == {"equilibrium", "blocked", "horizon_exhausted"}, ends
