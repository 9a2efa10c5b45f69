"""Acceptance 4 and 5, and baselines in every comparison: cases are identified by content, names
are unique, repeats are clustered per seed, and every case is contrasted with `stay` and `mimic`
on the same seeds."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mam_bench.errors import ConfigError
from mam_bench.experiment.run_suite import run_experiment
from mam_bench.experiment.stats import bootstrap_ci, effect_size_dz, holm, wilcoxon
from mam_bench.experiment.suite import pairs_of, parse_suite
from tests.experiment.conftest import cli

SMALL = {"world": "schelling", "params": {"size": 10, "max_rounds": 60}, "influence": 4}


def pooled(summary: pd.DataFrame, test: str = "lift") -> pd.DataFrame:
    return summary[(summary["test"] == test) & (summary["reference_status"] == "all")]


def test_unnamed_cases_differing_only_in_objective_give_two_rows(tmp_path) -> None:
    suite = parse_suite(
        {
            "cases": [
                {**SMALL, "controller": "random", "objective": "integrate"},
                {**SMALL, "controller": "random", "objective": "segregate"},
            ],
            "seeds": 6,
            "baselines": [],
        }
    )
    out = run_experiment(suite, tmp_path / "exp", jobs=2)
    rows = pooled(out.summary)
    assert len(rows) == 2
    assert sorted(rows["objective"]) == ["integrate", "segregate"]
    assert rows["case"].is_unique and set(rows["influence"]) == {4}
    # same seeds, same treatment, opposite directions: the two lifts are exact negatives
    assert rows["mean"].iloc[0] == pytest.approx(-rows["mean"].iloc[1])
    assert set(rows["n"]) == {6}


def test_duplicate_name_is_rejected_naming_the_field(tmp_path, write_suite) -> None:
    data = {"cases": [{**SMALL, "name": "a", "controller": "random"}, {**SMALL, "name": "a", "controller": "stay"}]}
    with pytest.raises(ConfigError) as err:
        parse_suite(data)
    assert err.value.field == "cases[1].name"
    proc = cli("experiment", str(write_suite(data)), "--out", str(tmp_path / "x"))
    assert proc.returncode == 2 and "cases[1].name:" in proc.stderr and not (tmp_path / "x").exists()


def test_same_content_twice_is_rejected() -> None:
    with pytest.raises(ConfigError) as err:
        parse_suite({"cases": [{**SMALL, "controller": "random"}, {**SMALL, "controller": "random", "name": "again"}]})
    assert err.value.field == "cases[1]"


def test_repeats_of_a_deterministic_controller_count_once(tmp_path) -> None:
    suite = parse_suite({"cases": [{**SMALL, "controller": "stay"}], "seeds": 5, "repeats": 3, "baselines": []})
    out = run_experiment(suite, tmp_path / "exp", jobs=2)
    table = out.table
    assert len(table[table["role"] == "case"]) == 15
    row = pooled(out.summary).iloc[0]
    assert row["n"] == 5 and row["repeats"] == 3 and bool(row["deterministic"])
    case = table[table["role"] == "case"]
    per_seed = case.groupby("seed")["lift"].mean().to_numpy()
    assert row["mean"] == pytest.approx(per_seed.mean())
    assert row["ci_low"] == pytest.approx(bootstrap_ci(per_seed)[0])
    assert row["wilcoxon_p"] == pytest.approx(wilcoxon(per_seed)[0])


@pytest.fixture
def mimic_world() -> str:
    # Schelling itself now has rule_action (worlds branch), so the real world serves the mimic baseline
    return "schelling"


def test_every_case_is_contrasted_with_stay_and_mimic_on_the_same_seeds(tmp_path, mimic_world: str) -> None:
    suite = parse_suite(
        {
            "name": "contrasts",
            "family": "fam-1",
            "seeds": 6,
            "equivalence_margin": 0.05,
            "cases": [
                {**SMALL, "world": mimic_world, "controller": "random", "name": "rnd"},
                {**SMALL, "world": mimic_world, "controller": "rule", "name": "rule"},
            ],
            "contrasts": [["rnd", "rule"]],
        }
    )
    planned = {(p.case.controller_name, p.role) for p in pairs_of(suite)}
    assert planned == {("random", "case"), ("rule", "case"), ("stay", "baseline"), ("mimic", "baseline")}
    out = run_experiment(suite, tmp_path / "exp", jobs=2)
    t, s = out.table, out.summary
    assert set(s["family"]) == {"fam-1"}
    lift = {c: t[t["controller"] == c].set_index("seed")["lift"] for c in ("random", "rule", "stay", "mimic")}
    assert (lift["rule"] == 0).all()
    rnd = s[(s["case"] == "rnd") & (s["reference_status"] == "all")].set_index("test")
    assert list(rnd.index) == ["lift", "vs stay", "vs mimic", "vs rule"]
    for test, base in (("vs stay", "stay"), ("vs mimic", "mimic"), ("vs rule", "rule")):
        diff = (lift["random"] - lift[base]).sort_index().to_numpy()
        assert rnd.loc[test, "n"] == 6
        assert rnd.loc[test, "mean"] == pytest.approx(diff.mean())
        assert rnd.loc[test, "ci_low"] == pytest.approx(bootstrap_ci(diff)[0], nan_ok=True)
        assert rnd.loc[test, "dz"] == pytest.approx(effect_size_dz(diff), nan_ok=True)
        assert rnd.loc[test, "wilcoxon_p"] == pytest.approx(wilcoxon(diff)[0], nan_ok=True)
    # the contrast is the treatment outcome difference in the objective's direction
    tre = {c: t[t["controller"] == c].set_index("seed")["treatment_final"] for c in ("random", "stay")}
    direction = -1  # Schelling's default objective, integrate: lower OEH is better
    assert rnd.loc["vs stay", "mean"] == pytest.approx((direction * (tre["random"] - tre["stay"])).mean())
    # Holm runs over the family: the pooled rows of distinct questions; strata stand outside it
    family = s[s["in_family"]]
    assert family["holm_p"].tolist() == pytest.approx(holm(family["wilcoxon_p"].tolist()), nan_ok=True)
    assert not s[s["reference_status"] != "all"]["in_family"].any()
    assert s[~s["in_family"] & (s["mirror_of"] == "")]["holm_p"].isna().all()
    rule_lift = s[(s["case"] == "rule") & (s["test"] == "lift") & (s["reference_status"] == "all")].iloc[0]
    assert np.isnan(rule_lift["ci_low"]) and rule_lift["tost_p"] == 0.0 and rule_lift["zeros_dropped"] == 6


@pytest.fixture
def no_rule_world():
    """Every built-in world has a rule_action now; a user's world may not: register one for the test."""
    from mam_bench import registry
    from mam_bench.registry import WorldRegistration

    table = registry.registrations()
    table["test-no-rule-schelling"] = WorldRegistration(world="tests.experiment.mimic_world:NoRuleSchelling")
    yield "test-no-rule-schelling"
    del table["test-no-rule-schelling"]


def test_mimic_baseline_on_a_world_without_rule_action_is_rejected(no_rule_world: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_suite({"cases": [{"world": no_rule_world, "controller": "random"}], "baselines": ["mimic"]})
    assert err.value.field == "baselines" and no_rule_world in str(err.value)
