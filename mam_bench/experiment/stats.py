"""Statistics that are right by design, one row per case and test.

- The unit is the seed: repeats (and random placement draws) are averaged within their seed
  first, so n is the number of seeds and identical repeats of a deterministic controller count once.
- Every case is tested against 0 (its lift) and, paired by seed, against its baselines (`stay`,
  `mimic`) and any contrast the suite names: case lift minus comparison lift, which equals
  direction x (case treatment - comparison treatment) because both share the reference.
- Each mean has its median beside it, a seeded percentile bootstrap 95% CI over seeds, a paired
  effect size dz (mean/SD), a Wilcoxon signed-rank p (zeros dropped and counted; exact over
  sign assignments, ties included, up to 500 non-zero differences), Holm's adjustment
  over the suite's family and, when the suite sets a margin, a TOST equivalence p.
- The Holm family holds the pooled tests of distinct questions only. Rows that ask no new question
  are reported with `in_family = false` and no Holm p of their own: the per-status strata, the
  intention-to-treat rows, and exact mirrors (a row whose per-seed values equal, or negate, those
  of an earlier family row on the same seeds: `stay` under `integrate` and under `segregate` plays
  one treatment twice). A mirror names its row in `mirror_of` and carries that row's Holm p.
- NA where a figure does not exist: no interval, dz or test for n < 2 or zero variance.
- Invalid pairs (their controller failed more than the suite's share of its decisions) are left
  out and counted; a case with any gets an intention-to-treat row (`lift (ITT)`, invalid pairs kept
  as played) beside the valid-only row, since dropping them selects on a post-treatment outcome.
  Every row shows its case's mean and maximum policy-error share.
- `deterministic`: every placement draw of every seed gave identical repeats (draws are different
  influence sets, so they may differ; repeats of one draw may not).
- When a case's references end in more than one status (blocked / equilibrium, say), rows
  per status follow the pooled row, and `flips` cross-tabulates reference and treatment status.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from mam_bench.numbers import interval, p_value, signed

SUMMARY_COLUMNS = (
    "family",
    "case",
    "world",
    "objective",
    "influence",
    "horizon",
    "dose_group",
    "controller",
    "model",
    "metric",
    "test",
    "reference_status",
    "n",
    "repeats",
    "deterministic",
    "invalid",
    "mixed",
    "policy_error_mean",
    "policy_error_max",
    "mean",
    "median",
    "sd",
    "ci_low",
    "ci_high",
    "dz",
    "positive_share",
    "wilcoxon_p",
    "zeros_dropped",
    "holm_p",
    "in_family",
    "mirror_of",
    "tost_p",
    "calls",
    "cost",
)
#: the suffix of an intention-to-treat row's test name (invalid pairs kept as played)
ITT = " (ITT)"
NA = math.nan


def bootstrap_ci(
    values: np.ndarray, seed: int = 0, resamples: int = 10_000, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap of the mean, seeded so a summary is reproducible; NA for n < 2 or no spread."""
    values = np.asarray(values, dtype=float)
    if values.size < 2 or np.all(values == values[0]):
        return NA, NA
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, values.size, size=(resamples, values.size))].mean(axis=1)
    a = (1 - level) / 2
    return float(np.quantile(means, a)), float(np.quantile(means, 1 - a))


#: above this many non-zero differences the signed-rank p is scipy's normal approximation
EXACT_WILCOXON_MAX = 500


def signed_rank_exact_p(diff: np.ndarray) -> float:
    """Two-sided exact signed-rank p of non-zero differences: the null distribution of the sum of
    positive (mid-)ranks, counted over all 2^n sign assignments by dynamic programming, so ties
    and any n up to EXACT_WILCOXON_MAX are exact (p = 2 min(P(T <= t), P(T >= t)), capped at 1)."""
    ranks2 = np.rint(2 * sps.rankdata(np.abs(diff))).astype(np.int64)  # mid-ranks are halves
    dist = np.zeros(int(ranks2.sum()) + 1)
    dist[0] = 1.0
    for r in ranks2:
        dist = 0.5 * (dist + np.concatenate([np.zeros(r), dist[:-r]]))
    t = int(ranks2[diff > 0].sum())
    return float(min(1.0, 2 * min(dist[: t + 1].sum(), dist[t:].sum())))


def wilcoxon(diff: np.ndarray) -> tuple[float, int]:
    """Two-sided signed-rank p of paired differences and how many zero differences it dropped
    (Wilcoxon's zero method); exact over sign assignments of the rest (scipy would switch to its
    normal approximation at the first zero), normal above EXACT_WILCOXON_MAX; NA when no non-zero
    difference is left."""
    diff = np.asarray(diff, dtype=float)
    zeros = int(np.sum(diff == 0))
    nonzero = diff[diff != 0]
    if nonzero.size < 1:
        return NA, zeros
    if nonzero.size > EXACT_WILCOXON_MAX:
        return float(sps.wilcoxon(nonzero, method="approx").pvalue), zeros
    return signed_rank_exact_p(nonzero), zeros


def effect_size_dz(diff: np.ndarray) -> float:
    """Cohen's dz: mean of the paired differences over their SD; NA for n < 2 or no spread."""
    diff = np.asarray(diff, dtype=float)
    if diff.size < 2 or np.all(diff == diff[0]):  # identical values: the float SD is rounding noise
        return NA
    return float(diff.mean()) / float(diff.std(ddof=1))


def tost_p(diff: np.ndarray, margin: float | None) -> float:
    """Paired TOST: the larger of the two one-sided t-test p values against -margin and +margin.
    Small p supports |mean| < margin. NA without a margin or for n < 2."""
    diff = np.asarray(diff, dtype=float)
    if margin is None or diff.size < 2:
        return NA
    mean, sd = float(diff.mean()), float(diff.std(ddof=1))
    if np.all(diff == diff[0]):  # the t statistics are infinite: equivalence is certain or impossible
        return 0.0 if abs(diff[0]) < margin else 1.0
    se, df = sd / math.sqrt(diff.size), diff.size - 1
    p_low = float(sps.t.sf((mean + margin) / se, df))
    p_high = float(sps.t.cdf((mean - margin) / se, df))
    return max(p_low, p_high)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment; NA stays NA and does not count as a test."""
    idx = [i for i, p in enumerate(pvalues) if p is not None and not math.isnan(p)]
    out = [NA] * len(pvalues)
    m = len(idx)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def per_seed(g: pd.DataFrame, column: str = "lift") -> pd.DataFrame:
    """One value per seed: the mean over its repeats and placement draws (the cluster), with the
    reference's terminal status, the number of pairs, the most repeats of one draw, and whether
    the repeats of each draw were identical (a deterministic controller)."""
    rows = []
    draws = g["draw"] if "draw" in g else pd.Series(0, index=g.index)
    for seed, s in g.groupby("seed", sort=True):
        v = s[column].to_numpy(dtype=float)
        per_draw = [d[column].to_numpy(dtype=float) for _, d in s.groupby(draws.loc[s.index], sort=True)]
        rows.append(
            {
                "seed": seed,
                "value": float(v.mean()),
                "reference_status": s["reference_status"].iloc[0],
                "pairs": len(v),
                "repeats": max(len(d) for d in per_draw),
                "identical": all(bool(np.all(d == d[0])) for d in per_draw),
            }
        )
    return pd.DataFrame(rows, columns=["seed", "value", "reference_status", "pairs", "repeats", "identical"])


def _figures(values: np.ndarray, margin: float | None, seed: int) -> dict[str, Any]:
    n = int(values.size)
    lo, hi = bootstrap_ci(values, seed)
    p, zeros = wilcoxon(values) if n else (NA, 0)
    return {
        "n": n,
        "mean": float(values.mean()) if n else NA,
        "median": float(np.median(values)) if n else NA,
        "sd": (0.0 if np.all(values == values[0]) else float(values.std(ddof=1))) if n > 1 else NA,
        "ci_low": lo,
        "ci_high": hi,
        "dz": effect_size_dz(values),
        "positive_share": float((values > 0).mean()) if n else NA,
        "wilcoxon_p": p,
        "zeros_dropped": zeros,
        "tost_p": tost_p(values, margin),
    }


def _plan(df: pd.DataFrame, suite: Any) -> list[dict[str, Any]]:
    """Which rows to write: each case's key with its baselines' and contrasts' keys."""
    if suite is None:
        cases = df[df["role"] == "case"].drop_duplicates("case_key")
        return [{"key": k, "compare": [], "dose_group": ""} for k in cases["case_key"]]
    plan = []
    for case in suite.expanded_cases():
        compare = [(f"vs {b}", case.baseline(b).content_key()[:16]) for b in suite.baseline_controllers(case)]
        compare += [(f"vs {other.name}", other.content_key()[:16]) for other in suite.contrast_partners(case)]
        dose = case.model_copy(update={"name": None, "influence": None, "influence_ids": None})
        plan.append({"key": case.content_key()[:16], "compare": compare, "dose_group": dose.content_key()[:8]})
    return plan


def _tests(
    g: pd.DataFrame, item: dict[str, Any], groups: dict[str, pd.DataFrame], kept: str
) -> list[tuple[str, pd.DataFrame, int]]:
    """A case's tests (lift, settled lift, each comparison) as (name, per-seed frame, invalid pairs),
    over its valid pairs (`kept="valid"`) or over every pair as played (`kept="all"`)."""

    def keep(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[frame["valid"]] if kept == "valid" else frame

    mine, invalid = keep(g), int((~g["valid"]).sum())
    seeds = per_seed(mine)
    tests: list[tuple[str, pd.DataFrame, int]] = [("lift", seeds, invalid)]
    settled = mine.dropna(subset=["settled_lift"]) if "settled_lift" in mine else mine.iloc[0:0]
    if len(settled):
        tests.append(("settled lift", per_seed(settled, "settled_lift"), invalid))
    for name, key in item["compare"]:
        other = groups.get(key)
        if other is None:
            continue
        theirs = per_seed(keep(other))
        both = seeds.merge(theirs[["seed", "value"]], on="seed", suffixes=("", "_other"))
        both["value"] = both["value"] - both["value_other"]
        tests.append((name, both, invalid + int((~other["valid"]).sum())))
    return tests


def _mirror(part: pd.DataFrame, seen: list[tuple[str, pd.Series]]) -> str:
    """The earlier family row this one repeats exactly (same seeds, values equal or negated), if any."""
    values = part.set_index("seed")["value"]
    if not len(values) or bool((values == 0).all()):
        return ""
    for label, other in seen:
        if other.index.equals(values.index) and (bool((other == values).all()) or bool((other == -values).all())):
            return label
    return ""


def summarize(
    df: pd.DataFrame, suite: Any = None, seed: int = 0, current_provenance: dict[str, str] | None = None
) -> pd.DataFrame:
    """The summary table (see the module docstring); `suite` supplies baselines, contrasts, the
    Holm family and the TOST margin (without it: lift against 0 only). `current_provenance` maps
    world -> provenance id; pairs with another id count as mixed (default: each world's commonest id)."""
    if df.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    margin = suite.equivalence_margin if suite is not None else None
    family = suite.family_name if suite is not None else "summary"
    if current_provenance is None:
        current_provenance = {w: g["provenance_id"].mode().iloc[0] for w, g in df.groupby("world")}
    groups = {k: g for k, g in df.groupby("case_key", sort=False)}
    rows: list[dict[str, Any]] = []
    seen: list[tuple[str, pd.Series]] = []  # the family's pooled rows so far, for mirrors
    for item in _plan(df, suite):
        g = groups.get(item["key"])
        if g is None:
            continue
        shares = g["policy_error_share"].astype(float)
        head = {
            "family": family,
            "case": g["case"].iloc[0],
            "world": g["world"].iloc[0],
            "objective": g["objective"].iloc[0],
            "influence": int(g["influence"].iloc[0]),
            "horizon": int(g["horizon"].iloc[0]),
            "dose_group": item["dose_group"],
            "controller": g["controller"].iloc[0],
            "model": g["model"].iloc[0],
            "metric": g["metric"].iloc[0],
            "calls": int(g["calls"].sum()),
            "cost": float(g["cost"].sum()),
            "mixed": int((g["provenance_id"] != current_provenance.get(g["world"].iloc[0])).sum()),
            "policy_error_mean": float(shares.mean()),
            "policy_error_max": float(shares.max()),
        }
        played = {name: s for name, s, _ in _tests(g, item, groups, "all")}
        for test, s, invalid in _tests(g, item, groups, "valid"):
            strata = [("all", s, test, True)]
            if invalid:
                strata.append(("all", played[test], test + ITT, False))
            statuses = list(dict.fromkeys(s["reference_status"]))
            if len(statuses) > 1:
                strata += [(st, s[s["reference_status"] == st], test, False) for st in statuses]
            for status, part, name, pooled in strata:
                mirror = _mirror(part, seen) if pooled else ""
                if pooled and not mirror:
                    seen.append((f"{head['case']}: {name}", part.set_index("seed")["value"]))
                rows.append(
                    {
                        **head,
                        "test": name,
                        "reference_status": status,
                        "invalid": invalid,
                        "repeats": int(part["repeats"].max()) if len(part) else 0,
                        "deterministic": bool(len(part) and part["repeats"].max() > 1 and part["identical"].all()),
                        "in_family": pooled and not mirror,
                        "mirror_of": mirror,
                        **_figures(part["value"].to_numpy(dtype=float), margin, seed),
                    }
                )
    out = pd.DataFrame(rows, columns=[c for c in SUMMARY_COLUMNS if c != "holm_p"] + ["holm_p"])
    family_rows = out.index[out["in_family"]]
    out["holm_p"] = NA
    out.loc[family_rows, "holm_p"] = holm(out.loc[family_rows, "wilcoxon_p"].tolist())
    label = out["case"].astype(str) + ": " + out["test"].astype(str)
    by_label = dict(zip(label[out["in_family"]], out.loc[out["in_family"], "holm_p"]))
    mirrors = out["mirror_of"] != ""
    out.loc[mirrors, "holm_p"] = out.loc[mirrors, "mirror_of"].map(by_label)
    return out[list(SUMMARY_COLUMNS)]


PLACEBO_COLUMNS = ("case", "placebo", "n", "mean", "ci_low", "ci_high")
#: the baselines that remove or re-draw the influence agents without steering
PLACEBOS = ("rule", "stay", "mimic")


def placebo_lifts(df: pd.DataFrame, suite: Any = None, seed: int = 0) -> pd.DataFrame:
    """Per case, each placebo's own lift over the case's seeds (`stay`, `mimic`: the baselines the
    suite plays beside it), with its CI: what a lift must beat before it says the agents steer."""
    rows = []
    groups = {k: g for k, g in df.groupby("case_key", sort=False)}
    for item in _plan(df, suite):
        g = groups.get(item["key"])
        if g is None:
            continue
        for name, key in item["compare"]:
            other = groups.get(key)
            if other is None or name.removeprefix("vs ") not in PLACEBOS:  # a contrast with another case
                continue
            values = per_seed(other[other["valid"]])["value"].to_numpy(dtype=float)
            figures = _figures(values, None, seed)
            rows.append({"case": g["case"].iloc[0], "placebo": name.removeprefix("vs "), **figures})
    return pd.DataFrame([{c: r[c] for c in PLACEBO_COLUMNS} for r in rows], columns=PLACEBO_COLUMNS)


def placebos_from_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """Each case's placebo lifts read back from its contrasts (mean lift - mean `vs P`, the same
    seeds): what summary.csv alone tells, without intervals of their own."""
    pooled = summary[summary["reference_status"] == "all"]
    rows = []
    for case, g in pooled.groupby("case", sort=False):
        lift = g[g["test"] == "lift"]
        for _, r in g[g["test"].isin([f"vs {p}" for p in PLACEBOS])].iterrows():
            if len(lift) and int(r["n"]) == int(lift.iloc[0]["n"]):
                mean = float(lift.iloc[0]["mean"]) - float(r["mean"])
                rows.append([case, str(r["test"]).removeprefix("vs "), int(r["n"]), mean, NA, NA])
    return pd.DataFrame(rows, columns=PLACEBO_COLUMNS)


def verdicts(summary: pd.DataFrame, placebos: pd.DataFrame | None = None) -> list[str]:
    """One line per case, as `run` reads one seed: the lift beyond the best placebo (by mean lift),
    with its CI over seeds; it steers only where that interval lies above 0. Without `placebos`
    their lifts are read back from the summary's contrasts."""
    pooled = summary[summary["reference_status"] == "all"]
    if placebos is None:
        placebos = placebos_from_summary(summary)
    lines = []
    for case, rows in pooled.groupby("case", sort=False):
        lift = rows[rows["test"] == "lift"]
        if lift.empty:
            continue
        own = lift.iloc[0]
        head = f"{case}: lift {signed(own['mean'])} {interval(own['ci_low'], own['ci_high'])}"
        mine = placebos[placebos["case"] == case]
        if mine.empty:
            lines.append(f"{head}; no placebo played beside it (suite baselines: stay, mimic), so no verdict")
            continue
        best = mine.loc[mine["mean"].astype(float).idxmax()]
        vs = rows[rows["test"] == f"vs {best['placebo']}"]
        if vs.empty:
            lines.append(f"{head}; no paired contrast with {best['placebo']}, so no verdict")
            continue
        d = vs.iloc[0]
        low = float(d["ci_low"])
        if math.isnan(low):
            said = "no verdict (no interval: too few seeds)"
        elif low > 0:
            said = "steers"
        else:
            said = "does not steer"
        lines.append(
            f"{head}; lift beyond the best placebo ({best['placebo']} {signed(best['mean'])}) "
            f"{signed(d['mean'])} {interval(d['ci_low'], d['ci_high'])}: {said}"
        )
    return lines


FLIP_COLUMNS = ("case", "world", "reference_status", "treatment_status", "pairs", "invalid", "mean_lift")


def flips(df: pd.DataFrame) -> pd.DataFrame:
    """Per case of a world whose runs end in more than one status: how many pairs went from each
    reference status (terminal) to each treatment status (at the horizon), and their mean valid
    lift. A lift that comes from a few seeds changing basin shows here, not in a mean."""
    rows: list[dict[str, Any]] = []
    if df.empty:
        return pd.DataFrame(columns=FLIP_COLUMNS)
    for world, w in df.groupby("world", sort=False):
        if w["reference_status"].nunique() < 2 and w["treatment_status"].nunique() < 2:
            continue
        for case, g in w[w["role"] == "case"].groupby("case", sort=False):
            for (ref, tre), cell in g.groupby(["reference_status", "treatment_status"], sort=True):
                valid = cell[cell["valid"]]["lift"].astype(float)
                rows.append(
                    {
                        "case": case,
                        "world": world,
                        "reference_status": ref,
                        "treatment_status": tre,
                        "pairs": len(cell),
                        "invalid": int((~cell["valid"]).sum()),
                        "mean_lift": float(valid.mean()) if len(valid) else NA,
                    }
                )
    return pd.DataFrame(rows, columns=FLIP_COLUMNS)


def format_flips(table: pd.DataFrame) -> str:
    """Each case's cross-table for the terminal: reference status down, treatment status across,
    pairs (and their mean lift) in the cells; empty when no world's runs end in different statuses."""
    if table.empty:
        return ""
    lines = ["flips: pairs by reference status (rows) x treatment status at the horizon (columns), mean lift"]
    for case, g in table.groupby("case", sort=False):
        cols = list(dict.fromkeys(sorted(g["treatment_status"])))
        cells = {(r.reference_status, r.treatment_status): r for r in g.itertuples()}
        lines.append(f"  {case}")
        lines.append("    " + f"{'reference':<18s}" + "".join(f"{c[:22]:>24s}" for c in cols))
        for ref in dict.fromkeys(sorted(g["reference_status"])):
            out = []
            for c in cols:
                r = cells.get((ref, c))
                text = "0" if r is None else f"{r.pairs} ({signed(r.mean_lift)})"
                out.append(f"{text:>24s}")
            lines.append("    " + f"{str(ref)[:18]:<18s}" + "".join(out))
    return "\n".join(lines)


def write_summary(summary: pd.DataFrame, path: Path) -> None:
    from mam_bench.records import write_whole

    # every digit: figures are rounded once, when printed
    write_whole(path, summary.to_csv(index=False, na_rep="NA"))


def format_summary(summary: pd.DataFrame) -> str:
    """A fixed-width table for the terminal; `*` after a Holm p marks a row outside the family
    (a stratum, an intention-to-treat row, or a mirror, which carries its row's p)."""
    wc = max([4, *(len(str(c)) for c in summary["case"])])  # names and statuses are never cut
    ws = max([10, *(len(str(s)) for s in summary["reference_status"])])
    head = (
        f"{'case':<{wc}s} {'test':<18s} {'ref status':<{ws}s} {'n':>3s} {'inv':>3s} {'err mean/max':>12s} "
        f"{'mean':>9s} {'median':>9s} {'95% CI':>21s} {'dz':>6s} {'wilcoxon p':>10s} {'0s':>3s} "
        f"{'holm p':>9s} {'tost p':>8s}"
    )
    lines = [head, "-" * len(head)]
    for r in summary.itertuples():
        ci = interval(r.ci_low, r.ci_high)
        errors = f"{r.policy_error_mean:.2f}/{r.policy_error_max:.2f}"
        holm_p = p_value(r.holm_p) + ("" if r.in_family else "*")
        lines.append(
            f"{str(r.case):<{wc}s} {str(r.test)[:18]:<18s} {str(r.reference_status):<{ws}s} {r.n:>3d} "
            f"{r.invalid:>3d} {errors:>12s} {signed(r.mean):>9s} {signed(r.median):>9s} {ci:>21s} "
            f"{signed(r.dz, 2):>6s} {p_value(r.wilcoxon_p):>10s} {r.zeros_dropped:>3d} {holm_p:>9s} "
            f"{p_value(r.tost_p):>8s}"
        )
    mirrors = summary[summary["mirror_of"] != ""]
    if len(mirrors):
        lines.append("* outside the Holm family; mirrors (the same data as a family row):")
        lines += [f"  {r.case}: {r.test} = {r.mirror_of}" for r in mirrors.itertuples()]
    elif not summary["in_family"].all():
        lines.append("* outside the Holm family (per-status strata, intention-to-treat rows)")
    return "\n".join(lines)
