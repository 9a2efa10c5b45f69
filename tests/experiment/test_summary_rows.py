"""The summary's rows beyond the lift: the Holm family holds distinct questions only (strata, ITT
rows and exact mirrors stand outside it), an intention-to-treat row keeps invalid pairs as played,
each case shows its policy-error share, and the flips table counts basin changes."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from mam_bench.experiment.stats import flips, format_flips, format_summary, holm, summarize, wilcoxon

SEEDS = list(range(8))
LIFTS = [0.11, -0.02, 0.25, 0.07, 0.31, 0.04, 0.19, -0.05]


def rows(case: str, lifts: list[float], **extra) -> list[dict]:
    """One table row per seed, with the columns summarize reads."""
    out = []
    for i, (seed, lift) in enumerate(zip(SEEDS, lifts)):
        row = {
            "pair_id": f"{case}-{seed}",
            "case": case,
            "case_key": case,
            "role": "case",
            "world": "w",
            "seed": seed,
            "repeat": 0,
            "draw": 0,
            "controller": "random",
            "model": "",
            "objective": "up",
            "influence": 2,
            "horizon": 10,
            "metric": "m",
            "lift": lift,
            "settled_lift": math.nan,
            "reference_status": "blocked" if seed % 2 else "equilibrium",
            "treatment_status": "fixed_horizon",
            "valid": True,
            "policy_error_share": 0.0,
            "provenance_id": "p",
            "calls": 0,
            "cost": 0.0,
        }
        for k, v in extra.items():
            row[k] = v[i] if isinstance(v, list) else v
        out.append(row)
    return out


def frame(*cases: list[dict]) -> pd.DataFrame:
    return pd.DataFrame([r for c in cases for r in c])


def test_an_exact_mirror_and_the_strata_stand_outside_the_holm_family() -> None:
    other = [0.02, 0.05, -0.01, 0.08, 0.03, 0.06, -0.04, 0.09]
    df = frame(rows("a", LIFTS), rows("a-mirrored", [-v for v in LIFTS]), rows("b", other))
    s = summarize(df).set_index(["case", "reference_status"])
    mirror = s.loc[("a-mirrored", "all")]
    assert not mirror["in_family"] and mirror["mirror_of"] == "a: lift"
    assert mirror["holm_p"] == s.loc[("a", "all"), "holm_p"]
    assert mirror["wilcoxon_p"] == pytest.approx(wilcoxon(np.array(LIFTS))[0])
    family = s[s["in_family"]]
    assert sorted(family.index.get_level_values(0)) == ["a", "b"]
    assert family["holm_p"].tolist() == pytest.approx(holm(family["wilcoxon_p"].tolist()))
    strata = s[s.index.get_level_values(1) != "all"]
    assert len(strata) == 6 and not strata["in_family"].any() and strata["holm_p"].isna().all()


def test_the_same_values_in_another_order_of_seeds_are_no_mirror() -> None:
    df = frame(rows("a", LIFTS), rows("c", LIFTS[::-1]))
    s = summarize(df)
    pooled = s[s["reference_status"] == "all"]
    assert pooled["in_family"].all() and (pooled["mirror_of"] == "").all()


def test_invalid_pairs_get_an_itt_row_and_the_error_shares_are_shown() -> None:
    shares = [0.0, 0.1, 0.6, 0.0, 0.05, 0.9, 0.0, 0.0]
    valid = [s <= 0.2 for s in shares]
    df = frame(rows("llm", LIFTS, policy_error_share=shares, valid=valid))
    s = summarize(df)
    pooled = s[s["reference_status"] == "all"].set_index("test")
    assert list(pooled.index) == ["lift", "lift (ITT)"]
    kept = np.array([v for v, ok in zip(LIFTS, valid) if ok])
    assert pooled.loc["lift", "n"] == 6 and pooled.loc["lift", "mean"] == pytest.approx(kept.mean())
    assert pooled.loc["lift (ITT)", "n"] == 8 and pooled.loc["lift (ITT)", "mean"] == pytest.approx(np.mean(LIFTS))
    assert pooled.loc["lift (ITT)", "invalid"] == 2 and not pooled.loc["lift (ITT)", "in_family"]
    assert pooled.loc["lift", "median"] == pytest.approx(np.median(kept))
    assert s["policy_error_mean"].iloc[0] == pytest.approx(np.mean(shares))
    assert s["policy_error_max"].iloc[0] == pytest.approx(0.9)
    text = format_summary(s)
    assert "lift (ITT)" in text and "0.21/0.90" in text


def test_no_itt_row_when_nothing_was_dropped() -> None:
    s = summarize(frame(rows("ok", LIFTS)))
    assert not s["test"].str.endswith("(ITT)").any()


def test_flips_count_each_reference_to_treatment_status() -> None:
    treated = ["equilibrium"] * 6 + ["blocked"] * 2
    df = frame(rows("a", LIFTS, treatment_status=treated))
    table = flips(df).set_index(["reference_status", "treatment_status"])
    # seeds 0..5 end in equilibrium in the treatment; odd seeds' references were blocked
    assert table.loc[("blocked", "equilibrium"), "pairs"] == 3
    assert table.loc[("blocked", "blocked"), "pairs"] == 1
    assert table.loc[("equilibrium", "equilibrium"), "pairs"] == 3
    assert table.loc[("equilibrium", "blocked"), "pairs"] == 1
    assert table.loc[("blocked", "equilibrium"), "mean_lift"] == pytest.approx(np.mean([LIFTS[1], LIFTS[3], LIFTS[5]]))
    assert table["pairs"].sum() == 8
    assert "blocked" in format_flips(flips(df))


def test_no_flips_table_where_every_run_ends_alike() -> None:
    df = frame(rows("a", LIFTS, reference_status="done", treatment_status="done"))
    assert flips(df).empty and format_flips(flips(df)) == ""


def test_the_console_summary_never_cuts_a_case_name_or_a_status() -> None:
    long_case = "a-case-name-longer-than-any-fixed-column"
    df = frame(rows(long_case, LIFTS))
    df["reference_status"] = ["horizon_exhausted", "blocked"] * (len(df) // 2)
    text = format_summary(summarize(df))
    assert long_case in text and "horizon_exhausted" in text
