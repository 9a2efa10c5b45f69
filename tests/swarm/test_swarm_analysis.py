"""`report DIR --analysis swarm`: correlations of the group-dynamics metrics with score and the
action attribution, on games whose answer is known by construction."""

from __future__ import annotations

import csv
import json
import math

import numpy as np

from mam_bench.cli import main
from mam_bench.models.swarm.analysis.attribution import attribute
from mam_bench.models.swarm.analysis.correlations import correlations, increase
from mam_bench.models.swarm.analysis.embeddings import message_embedder
from mam_bench.models.swarm.analysis.games import Game, distinct


def _game(i: int, score: float, entropy: float, rounds: list[dict] | None = None) -> Game:
    recs = rounds or [
        {"round": r, "positions": [[1, 1 + i]], "metrics": {"score": score * r / 8, "directional_entropy": entropy}}
        for r in range(9)
    ]
    return Game(f"p{i}", "case", "pursuit", i, {"view": 5, "size": 10}, (0,), tuple(recs))


def test_correlation_finds_a_planted_relation_and_its_sign():
    games = [_game(i, score=float(i), entropy=3.0 - 0.5 * i + 0.01 * (i % 2)) for i in range(6)]
    got = {c.metric: c for c in correlations(games) if c.task == "pursuit"}
    assert got["directional_entropy"].r < -0.99 and got["directional_entropy"].p < 0.01
    assert got["directional_entropy"].n == 6
    assert math.isnan(got["stillness_proportion"].r)  # not recorded: no number invented


def test_pooled_column_standardises_within_each_task():
    # two tasks on very different scales, each with the same negative relation
    games = [_game(i, score=float(i), entropy=-0.1 * i + 0.001 * (i % 2)) for i in range(4)]
    games += [
        Game(
            g.pair_id + "f",
            "case",
            "flocking",
            g.seed,
            g.params,
            g.influence_ids,
            tuple({**r, "metrics": {k: v * 100 + 50 for k, v in r["metrics"].items()}} for r in g.rounds),
        )
        for g in (_game(i, score=float(i), entropy=-0.1 * i) for i in range(4))
    ]
    pooled = next(c for c in correlations(games) if c.task == "pooled" and c.metric == "directional_entropy")
    assert pooled.n == 8 and pooled.r < -0.99
    two_each = [g for g in games if g.seed < 2]  # two games per task say nothing within a task
    pooled = next(c for c in correlations(two_each) if c.task == "pooled" and c.metric == "directional_entropy")
    assert math.isnan(pooled.r)


def test_identical_trajectories_count_once():
    a, b = _game(0, 1.0, 1.0), _game(0, 1.0, 1.0)
    assert len(distinct([a, b, _game(1, 2.0, 1.0)])) == 2


def test_increase_is_last_quartile_minus_first_over_rounds_with_messages():
    recs = [{"round": 0, "positions": [], "metrics": {}}] + [
        {"round": r, "positions": [], "messages": ["go"], "metrics": {"info_homogeneity": float(r)}}
        for r in range(1, 9)
    ]
    assert increase(_game(0, 0, 0, recs), "info_homogeneity") == (7.5 - 1.5)


def _steered_game(seed: int) -> Game:
    """One agent that moves toward the prey's column when it sees it, else stays: the prey's
    offset must carry the attribution, and the (silent) messages nothing."""
    rng = np.random.default_rng(seed)
    recs = [{"round": 0, "positions": [[5, 5]], "marks": {"5,6": "P"}, "actions": [None], "messages": [None]}]
    for r in range(1, 80):
        col = int(rng.integers(3, 8))
        prev = recs[-1]["marks"]
        pc = int(next(iter(prev)).split(",")[1])
        action = "STAY" if pc == 5 else ("RIGHT" if pc > 5 else "LEFT")
        recs.append(
            {"round": r, "positions": [[5, 5]], "marks": {f"5,{col}": "P"}, "actions": [action], "messages": [None]}
        )
    return Game(f"s{seed}", "case", "pursuit", seed, {"view": 5, "size": 10}, (0,), tuple(recs))


def test_attribution_ranks_the_feature_that_decides_the_action_first():
    embed, how = message_embedder()
    assert "hashed bag of words" in how or "sentence embedding" in how
    att = attribute("pursuit", [_steered_game(s) for s in range(4)], embed)
    assert att is not None and att.accuracy > 0.9 and att.accuracy > att.majority
    assert att.features[0].name == "target_dc" and att.held_out == "games"
    assert att.groups[0].name == "observation" and att.groups[1].mean <= 0.0 + 1e-9


def test_report_prints_the_tables_and_the_ranking(tmp_path, capsys):
    suite = tmp_path / "s.yaml"
    suite.write_text(
        "name: t\nseeds: 3\nbaselines: []\ncases:\n"
        "  - {name: a, world: pursuit, controller: heuristic, objective: help, influence: 10,"
        " params: {board: false, rounds: 12}}\n"
        "  - {name: b, world: pursuit, controller: random, objective: help, influence: 10,"
        " params: {board: false, rounds: 12}}\n"
    )
    out = tmp_path / "exp"
    assert main(["experiment", str(suite), "--out", str(out), "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main(["report", str(out), "--analysis", "swarm"]) == 0
    text = capsys.readouterr().out
    assert "Physical dynamics vs score" in text and "Protocol convergence vs score" in text
    assert "directional_entropy" in text and "6 games" in text
    with (out / "table.csv").open() as fh:
        ids = [r["pair_id"] for r in csv.DictReader(fh) if r["case"] == "a"]
    scores = [json.loads((out / "pairs" / i / "treatment.jsonl").read_text().splitlines()[-1]) for i in ids]
    line = next(x for x in text.splitlines() if x.strip().startswith("a "))
    assert f"{np.mean([r['metrics']['score'] for r in scores]):8.2f} +- " in line and "(n=3)" in line
    assert "pursuit:" in text and " 1. " in text and "hashed bag of words" in text


def test_unknown_analysis_is_a_named_error(tmp_path, capsys):
    assert main(["report", str(tmp_path), "--analysis", "nope"]) == 2
    assert "error: analysis:" in capsys.readouterr().err


def _noise_game(seed: int) -> Game:
    """Actions drawn at random, whatever the agent sees: nothing can predict them."""
    rng = np.random.default_rng(seed)
    recs = [{"round": 0, "positions": [[5, 5]], "marks": {}, "actions": [None], "messages": [None]}]
    for r in range(1, 120):
        pos = [int(rng.integers(1, 9)), int(rng.integers(1, 9))]
        act = ("UP", "DOWN", "LEFT")[int(rng.integers(3))]
        recs.append({"round": r, "positions": [pos], "marks": {}, "actions": [act], "messages": [None]})
    return Game(f"n{seed}", "case", "pursuit", seed, {"view": 5, "size": 10}, (0,), tuple(recs))


def test_attribution_tests_on_held_out_games_so_copies_cannot_leak():
    embed, _ = message_embedder()
    games = [_noise_game(s) for s in range(5)]
    twins = [Game(g.pair_id + "b", "noisy", g.task, g.seed, g.params, g.influence_ids, g.rounds) for g in games]
    att = attribute("pursuit", games + twins, embed)
    assert att is not None and att.samples == 5 * 119 and att.accuracy < 0.5


def _listening_game(seed: int) -> Game:
    """Agent 0 does what agent 1 said last round: the heard message decides the action."""
    rng = np.random.default_rng(seed)
    said = None
    recs = [{"round": 0, "positions": [[5, 5], [5, 6]], "marks": {}, "actions": [None, None], "messages": [None, None]}]
    for r in range(1, 100):
        act = {"left": "LEFT", "right": "RIGHT", None: "STAY"}[said]
        said = ("left", "right")[int(rng.integers(2))]
        recs.append(
            {"round": r, "positions": [[5, 5], [5, 6]], "marks": {}, "actions": [act, "STAY"], "messages": [None, said]}
        )
    return Game(f"l{seed}", "case", "pursuit", seed, {"view": 5, "size": 10}, (0,), tuple(recs))


def test_attribution_credits_the_message_heard_at_the_start_of_the_round():
    embed, _ = message_embedder()
    att = attribute("pursuit", [_listening_game(s) for s in range(4)], embed)
    assert att is not None and att.accuracy > 0.9
    groups = {g.name: g.mean for g in att.groups}
    # redundant message features share the credit one by one; the group permuted whole holds it
    assert groups["message"] > 0.3 and groups["message"] > 10 * groups["observation"]
