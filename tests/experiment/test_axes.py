"""Horizon, settle, dose and placement as suite axes, and the report's dose-response curve."""

from __future__ import annotations

import pytest

from mam_bench.commands.report import build_report
from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.suite import parse_suite
from mam_bench.runner import PairSpec, run_pair

CASE = {"name": "rnd", "world": "schelling", "params": {"size": 10, "max_rounds": 40}, "controller": "random"}


def test_dose_and_random_placement_axes_pair_baselines_on_the_same_ids(tmp_path) -> None:
    suite = parse_suite(
        {
            "seeds": 3,
            "baselines": ["stay"],
            "cases": [CASE],
            "axes": {"influence": [1, 2, 4], "placement": ["default", {"random": 2}]},
        }
    )
    names = [c.name for c in suite.expanded_cases()]
    assert names == [f"rnd-n{n}-{p}" for n in (1, 2, 4) for p in ("default", "random2")]
    out = run_experiment(suite, tmp_path / "exp", jobs=2)
    t = out.table
    assert len(t) == 2 * (3 * 3 + 3 * 3 * 2)  # case and stay: 3 doses x 3 seeds x (1 default + 2 draws)
    case = next(c for c in suite.expanded_cases() if c.name == "rnd-n4-random2")
    draws = t[t["case"] == "rnd-n4-random2"].set_index(["seed", "draw"])["influence_ids"]
    stay = t[t["case_key"] == case.baseline("stay").content_key()[:16]].set_index(["seed", "draw"])["influence_ids"]
    assert len(draws) == 6 and draws.sort_index().equals(stay.sort_index())  # same ids on the same seed and draw
    assert all(len(ids.split()) == 4 for ids in draws)
    assert draws.nunique() > 1  # the draws differ
    default = t[t["case"] == "rnd-n4-default"]["influence_ids"]
    assert default.nunique() == 1  # the world's default ids, the same on every seed
    rows = out.summary[(out.summary["reference_status"] == "all") & (out.summary["test"] == "lift")]
    assert sorted(rows["influence"]) == [1, 1, 2, 2, 4, 4] and set(rows["n"]) == {3}
    page = build_report(tmp_path / "exp")
    assert page.count('class="dose-point"') == 2 * 3 * 2  # (default, random2) x 3 doses x (lift, vs stay)
    assert 'id="dose-chart"' in page and 'id="provenance"' in page


def test_horizon_axis_and_settle_report_the_persisting_lift(tmp_path) -> None:
    suite = parse_suite(
        {"seeds": 2, "baselines": [], "axes": {"rounds": [2, 5]}, "cases": [{**CASE, "influence": 4, "settle": True}]}
    )
    out = run_experiment(suite, tmp_path / "exp", jobs=2)
    t = out.table
    assert sorted(set(t["horizon"])) == [2, 5]
    assert t["settled_lift"].notna().all()
    s = out.summary[out.summary["reference_status"] == "all"]
    assert list(s[s["case"] == "rnd-r2"]["test"]) == ["lift", "settled lift"]
    one = run_pair(
        PairSpec.build(
            world="schelling",
            seed=0,
            params={"size": 10, "max_rounds": 40},
            controller="random",
            influence=4,
            rounds=2,
            settle=True,
        )
    )
    row = t[(t["horizon"] == 2) & (t["seed"] == 0)].iloc[0]
    assert row["settled_lift"] == pytest.approx(one["settled"]["lift"])
    assert one["settled"]["from_round"] == 2 and one["settled"]["rounds"] >= 2


def test_rule_settles_to_zero() -> None:
    res = run_pair(PairSpec.build(world="schelling", seed=3, controller="rule", rounds=3, settle=True))
    assert res["settled"]["lift"] == 0.0


def test_contrasts_pair_variants_at_the_same_axis_values() -> None:
    suite = parse_suite(
        {
            "seeds": 2,
            "baselines": [],
            "contrasts": [["rnd", "stay"]],
            "axes": {"influence": [1, 3]},
            "cases": [CASE, {**CASE, "name": "stay", "controller": "stay"}],
        }
    )
    partners = {c.name: [p.name for p in suite.contrast_partners(c)] for c in suite.expanded_cases()}
    assert partners == {"rnd-n1": ["stay-n1"], "rnd-n3": ["stay-n3"], "stay-n1": [], "stay-n3": []}
