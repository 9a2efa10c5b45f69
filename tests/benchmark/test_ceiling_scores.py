"""Scores read from a ceiling file alone: the entry conditions, the held-out blocks' check and the
local tier's agreement (bench/v3_checks.py), on ceiling files built by hand where every number can
be worked out on paper."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from bench import v3_checks
from mam_bench.benchmark.ceiling_scores import aggregate_of, agreement, entries, scenario_share
from mam_bench.benchmark.headroom import seeds_for

PLACEBOS = ("rule", "stay", "mimic")


def cell(lifts: dict[str, float]) -> dict:
    """One seed of a scenario as `mam-bench ceiling` writes it: the best lift is the ceiling."""
    best = max(lifts, key=lambda k: lifts[k])
    return {
        "ceiling": lifts[best],
        "by": best,
        "lifts": dict(lifts),
        "placebos": {p: lifts[p] for p in PLACEBOS},
        "plan": [],
    }


def scenario(world: str, per_seed: list[dict[str, float]], seeds: list[int]) -> dict:
    return {"world": world, "objective": "o", "seeds": {str(s): cell(v) for s, v in zip(seeds, per_seed)}}


def lifts(oracle: float, greedy: float, heuristic: float, random: float, stay: float = 0.0, mimic: float = 0.0) -> dict:
    return {
        "oracle": oracle,
        "greedy": greedy,
        "heuristic": heuristic,
        "random": random,
        "stay": stay,
        "mimic": mimic,
        "rule": 0.0,
    }


SEEDS = [500, 501, 502]


def ceiling_file(scenarios: dict[str, dict], seeds: list[int] = SEEDS) -> dict:
    return {"benchmark": "b", "definition_hash": "h", "tier": "t", "seeds": seeds, "scenarios": scenarios}


def steered(world: str = "w", seeds: list[int] = SEEDS, shift: float = 0.0) -> dict:
    """The oracle 4, 5, 6 above rule; the heuristic half of that; random a quarter; stay at -1."""
    rows = [
        lifts(4 + k + shift, 3 + k + shift, (4 + k + shift) / 2, (4 + k + shift) / 4, stay=-1)
        for k in range(len(seeds))
    ]
    return scenario(world, rows, seeds)


def test_a_share_is_the_gain_over_the_best_placebo_per_unit_of_headroom() -> None:
    cells = list(steered()["seeds"].values())
    est, parts = scenario_share(cells, "heuristic")
    assert est.value == pytest.approx(0.5)  # (2 + 2.5 + 3) / (4 + 5 + 6), rule (0) the best placebo
    assert parts.mean() == pytest.approx(est.value)
    assert scenario_share(cells, "oracle")[0].value == pytest.approx(1.0)
    assert scenario_share(cells, "rule")[0].value == pytest.approx(0.0)


def test_entry_conditions_name_what_fails() -> None:
    flat = scenario("w", [lifts(0, 0, 0, 0) for _ in SEEDS], SEEDS)
    noisy = scenario("w", [lifts(5, 0, 0, 0, stay=0), lifts(0, 0, 0, 0, stay=0), lifts(0, 0, 0, 0, stay=1)], SEEDS)
    tied = scenario("w", [lifts(2 + k, -1, 2 + k, -1) for k in range(3)], SEEDS)
    out = {e.scenario: e for e in entries(ceiling_file({"ok": steered(), "flat": flat, "noisy": noisy, "tied": tied}))}
    assert out["ok"].enters and out["ok"].shares["heuristic"] == pytest.approx(0.5)
    assert out["flat"].why_not.startswith("(a) no headroom")
    assert out["noisy"].why_not.startswith("(a) headroom not shown")
    assert out["tied"].why_not.startswith("(b)")  # the heuristic ties the ceiling, the others are below 0


def test_the_entry_command_exits_1_when_a_scenario_fails(tmp_path: Path, capsys) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(ceiling_file({"ok": steered()})))
    assert v3_checks.main(["entry", str(path)]) == 0
    path.write_text(json.dumps(ceiling_file({"ok": steered(), "flat": scenario("w", [lifts(0, 0, 0, 0)] * 3, SEEDS)})))
    assert v3_checks.main(["entry", str(path)]) == 1
    assert "1 of 2 scenarios fail" in capsys.readouterr().out


def test_blocks_must_score_the_same_scenarios_with_the_heuristic_inside(tmp_path: Path) -> None:
    seeds2 = [2000, 2001, 2002]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(ceiling_file({"s": steered(), "t": steered("v")})))
    b.write_text(json.dumps(ceiling_file({"s": steered(seeds=seeds2, shift=1), "t": steered("v", seeds2)}, seeds2)))
    assert aggregate_of(json.loads(a.read_text()), "heuristic").low > 0
    assert v3_checks.main(["blocks", str(a), str(b)]) == 0
    flat = scenario("v", [lifts(0, 0, 0, 0)] * 3, seeds2)
    b.write_text(json.dumps(ceiling_file({"s": steered(seeds=seeds2), "t": flat}, seeds2)))
    assert v3_checks.main(["blocks", str(a), str(b)]) == 1


def test_agreement_is_kendalls_tau_of_the_rows_per_world(tmp_path: Path) -> None:
    ranking = ceiling_file({"s": steered("w"), "t": steered("v")})
    assert agreement(ranking, ranking) == {"v": (pytest.approx(1.0), 7), "w": (pytest.approx(1.0), 7)}
    # in world w the local tier puts random above the heuristic and greedy: two of 21 row pairs swap
    swapped = [lifts(4 + k, 3 + k, (4 + k) / 2, 3.5 + k, stay=-1) for k in range(3)]
    local = ceiling_file({"s": scenario("w", swapped, SEEDS), "t": steered("v")})
    taus = agreement(local, ranking)
    assert taus["v"][0] == pytest.approx(1.0)
    assert taus["w"][0] < 0.8 and not math.isnan(taus["w"][0])
    lp, rp = tmp_path / "l.json", tmp_path / "r.json"
    lp.write_text(json.dumps(local))
    rp.write_text(json.dumps(ranking))
    assert v3_checks.main(["agreement", str(rp), str(rp)]) == 0
    assert v3_checks.main(["agreement", str(lp), str(rp)]) == 1


def test_seeds_to_separate_a_difference_follow_the_spread() -> None:
    # sd of (0, 0.2) is 0.1414; (1.96 x sqrt(2) x 0.1414 / 0.1)^2 = 15.4, so 16 seeds
    assert seeds_for(np.array([0.0, 0.2]), 0.1) == 16
    assert seeds_for(np.array([0.0, 0.2]), 0.2) == 4
    assert seeds_for(np.array([0.5, 0.5, 0.5]), 0.1) == 2 and seeds_for(np.array([0.5]), 0.1) is None


@pytest.mark.parametrize(
    ("args", "files", "message"),
    [
        (["entry", "missing.json"], {}, "error: ceiling: no such file"),
        (["entry", "c.json"], {"c.json": "{not json"}, "error: ceiling: c.json is not a JSON file"),
        (
            ["entry", "c.json"],
            {"c.json": '{"benchmark": "b"}'},
            "error: ceiling: c.json is not a ceiling file (no 'tier'",
        ),
        (["entry", "c.json"], {"c.json": "[1, 2]"}, "error: ceiling: c.json is not a ceiling file"),
        (["blocks", "a.json"], {"a.json": "{}"}, "error: ceilings: give two or more"),
        (["agreement", "a.json", "missing.json"], {"a.json": "GOOD"}, "error: ranking: no such file"),
    ],
)
def test_the_checks_refuse_a_file_that_is_not_a_ceiling_in_one_line(
    tmp_path: Path, monkeypatch, capsys, args: list[str], files: dict[str, str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(json.dumps(ceiling_file({"s": steered()})) if text == "GOOD" else text)
    assert v3_checks.main(args) == 2
    out = capsys.readouterr()
    assert out.err.startswith(message) and out.err.count("\n") == 1
    assert out.out == ""
