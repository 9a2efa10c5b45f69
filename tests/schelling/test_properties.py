"""Property-based checks of the Schelling world over random small settings (hypothesis)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mam_bench.controller import Controller
from mam_bench.models.schelling.metrics import edge_homophily
from mam_bench.protocol import Decision, Request
from mam_bench.runner import PairSpec, prepare, run_pair, run_reference, run_treatment

THRESHOLDS = ["0", "1/4", "1/3", "1/2", "3/5", "2/3", "3/4", "4/5", "6/7", "1"]

settings_small = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_setting(draw):
    size = draw(st.integers(5, 12))
    vacancy = draw(st.sampled_from(["0.1", "0.2", "0.25", "0.3", "1/3", "0.4"]))
    threshold = draw(st.sampled_from(THRESHOLDS))
    seed = draw(st.integers(0, 10_000))
    rule = draw(st.sampled_from(["nearest_satisfactory", "random_empty"]))
    params = {"size": str(size), "vacancy": vacancy, "threshold": threshold, "move_rule": rule, "rounds": "8"}
    cells = size * size
    from fractions import Fraction

    agents = cells - round(Fraction(vacancy) * cells)
    n_inf = draw(st.integers(0, min(6, agents)))
    return params, seed, n_inf


@settings_small
@given(small_setting())
def test_null_steering_is_exact_round_by_round(setting):
    params, seed, n_inf = setting
    spec = PairSpec.build(world="schelling", seed=seed, params=params, controller="rule", influence=n_inf)
    prep = prepare(spec)
    ref, ref_rows = run_reference(prep)
    tre, tre_rows, _, _ = asyncio.run(run_treatment(prep, _rule()))
    for row in tre_rows:
        expected = ref_rows[min(row["round"], len(ref_rows) - 1)]
        assert row["positions"] == expected["positions"], f"diverged at round {row['round']}"
        assert row["metrics"]["oeh"] == expected["metrics"]["oeh"]
    result = run_pair(spec)
    assert result["lift"] == 0.0
    assert result["treatment"]["audit"]["identity_holds"]


def _rule():
    from mam_bench.steering.rule import RuleController

    return RuleController()


class ScriptedRandomMoves(Controller):
    """Proposes random cells (often illegal) so every outcome kind is exercised."""

    name = "scripted"

    def __init__(self, size: int, seed: int):
        self.rng = np.random.default_rng(seed)
        self.size = size

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        out = []
        for _ in requests:
            k = self.rng.integers(5)
            if k == 0:
                out.append(Decision(action={"stay": True}))
            elif k == 1:
                out.append(Decision.policy_error("unparseable"))
            elif k == 2:
                out.append(Decision(action={"row": "x"}))
            else:
                lim = self.size + 2
                out.append(
                    Decision(action={"row": int(self.rng.integers(-1, lim)), "col": int(self.rng.integers(-1, lim))})
                )
        return out


@settings_small
@given(small_setting())
def test_invariants_under_arbitrary_influence(setting):
    params, seed, n_inf = setting
    n_inf = max(n_inf, 1)
    spec = PairSpec.build(world="schelling", seed=seed, params=params, controller="rule", influence=n_inf)
    prep = prepare(spec)
    size = prep.params.size
    tre, rows, _, _ = asyncio.run(run_treatment(prep, ScriptedRandomMoves(size, seed)))
    n_agents = prep.params.n_agents
    influence = set(prep.influence_ids)
    accepted = {(e.round, e.actor_id): e.action for e in tre.run.audit if e.outcome == "accepted"}
    for before, after in zip(rows, rows[1:]):
        pos = after["positions"]
        # agents conserved, one agent per cell
        assert len(pos) == n_agents and len(set(pos)) == n_agents
        assert all(0 <= p < size * size for p in pos)
        # influence agents move only where their own accepted action sent them
        for aid in influence:
            moved = before["positions"][aid] != pos[aid]
            key = (before["round"], aid)
            if moved:
                assert key in accepted
                assert pos[aid] == accepted[key]["row"] * size + accepted[key]["col"]
            else:
                assert key not in accepted
    audit = tre.run.audit
    assert len(audit) == n_inf * tre.round
    ok = sum(e.outcome in ("accepted", "stay") for e in audit)
    failed = sum(e.outcome not in ("accepted", "stay") for e in audit)
    assert ok + failed == n_inf * tre.round


@settings_small
@given(small_setting())
def test_masked_metrics_ignore_influence_ids_in_both_runs(setting):
    params, seed, n_inf = setting
    n_inf = max(n_inf, 1)
    spec = PairSpec.build(world="schelling", seed=seed, params=params, controller="random", influence=n_inf)
    prep = prepare(spec)
    for world in (prep.new_world(False), prep.new_world(True)):
        scored = np.ones(prep.params.n_agents, dtype=bool)
        scored[list(prep.influence_ids)] = False
        try:
            expected = edge_homophily(world.board, world.types, scored)
        except ValueError:
            continue
        assert world.metrics()["oeh"] == expected
        # moving an influence actor's type label does not change the masked metric
        flipped = world.types.copy()
        flipped[list(prep.influence_ids)] = 1 - flipped[list(prep.influence_ids)]
        assert edge_homophily(world.board, flipped, scored) == expected
