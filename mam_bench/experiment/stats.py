"""Statistics that are right by design, one row per case and test.

- The unit is the seed: repeats (and random placement draws) are averaged within their seed
  first, so n is the number of seeds and identical repeats of a deterministic controller count once.
- Every case is tested against 0 (its lift) and, paired by seed, against its baselines (`stay`,
  `mimic`) and any contrast the suite names: case lift minus comparison lift, which equals
  direction x (case treatment - comparison treatment) because both share the reference.
- Each mean has a seeded percentile bootstrap 95% CI over seeds, a paired effect size dz (mean/SD),
  a Wilcoxon signed-rank p (zeros dropped and counted), Holm's adjustment over every p of the suite
  (its family) and, when the suite sets a margin, a TOST equivalence p.
- NA where a figure does not exist: no interval, dz or test for n < 2 or zero variance.
- Invalid pairs (their controller mostly failed) are left out and counted.
- When a case's references end in more than one status (Schelling: blocked / equilibrium), rows
  per status follow the pooled row.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

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
    "mean",
    "sd",
    "ci_low",
    "ci_high",
    "dz",
    "positive_share",
    "wilcoxon_p",
    "zeros_dropped",
    "holm_p",
    "tost_p",
    "calls",
    "cost",
)
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


def wilcoxon(diff: np.ndarray) -> tuple[float, int]:
    """Two-sided signed-rank p of paired differences and how many zero differences it dropped;
    NA when fewer than one non-zero difference is left."""
    diff = np.asarray(diff, dtype=float)
    zeros = int(np.sum(diff == 0))
    if diff.size - zeros < 1:
        return NA, zeros
    return float(sps.wilcoxon(diff, zero_method="wilcox").pvalue), zeros


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
    reference's terminal status, the number of pairs and whether they were all identical."""
    rows = []
    for seed, s in g.groupby("seed", sort=True):
        v = s[column].to_numpy(dtype=float)
        rows.append(
            {
                "seed": seed,
                "value": float(v.mean()),
                "reference_status": s["reference_status"].iloc[0],
                "pairs": len(v),
                "identical": bool(np.all(v == v[0])),
            }
        )
    return pd.DataFrame(rows, columns=["seed", "value", "reference_status", "pairs", "identical"])


def _figures(values: np.ndarray, margin: float | None, seed: int) -> dict[str, Any]:
    n = int(values.size)
    lo, hi = bootstrap_ci(values, seed)
    p, zeros = wilcoxon(values) if n else (NA, 0)
    return {
        "n": n,
        "mean": float(values.mean()) if n else NA,
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
        compare = [(f"vs {b}", case.baseline(b).content_key()[:16]) for b in suite.baseline_policies(case)]
        compare += [(f"vs {other.name}", other.content_key()[:16]) for other in suite.contrast_partners(case)]
        dose = case.model_copy(update={"name": None, "influence": None, "influence_ids": None})
        plan.append({"key": case.content_key()[:16], "compare": compare, "dose_group": dose.content_key()[:8]})
    return plan


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
    for item in _plan(df, suite):
        g = groups.get(item["key"])
        if g is None:
            continue
        valid = g[g["valid"]]
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
        }
        seeds = per_seed(valid)
        tests: list[tuple[str, pd.DataFrame, int]] = [("lift", seeds, int((~g["valid"]).sum()))]
        settled = valid.dropna(subset=["settled_lift"]) if "settled_lift" in valid else valid.iloc[0:0]
        if len(settled):
            tests.append(("settled lift", per_seed(settled, "settled_lift"), int((~g["valid"]).sum())))
        for name, key in item["compare"]:
            other = groups.get(key)
            if other is None:
                continue
            theirs = per_seed(other[other["valid"]])
            both = seeds.merge(theirs[["seed", "value"]], on="seed", suffixes=("", "_other"))
            both["value"] = both["value"] - both["value_other"]
            invalid = int((~g["valid"]).sum() + (~other["valid"]).sum())
            tests.append((name, both, invalid))
        for test, s, invalid in tests:
            strata = [("all", s)]
            statuses = list(dict.fromkeys(s["reference_status"]))
            if len(statuses) > 1:
                strata += [(st, s[s["reference_status"] == st]) for st in statuses]
            for status, part in strata:
                rows.append(
                    {
                        **head,
                        "test": test,
                        "reference_status": status,
                        "invalid": invalid,
                        "repeats": int(part["pairs"].max()) if len(part) else 0,
                        "deterministic": bool(len(part) and part["pairs"].max() > 1 and part["identical"].all()),
                        **_figures(part["value"].to_numpy(dtype=float), margin, seed),
                    }
                )
    out = pd.DataFrame(rows, columns=[c for c in SUMMARY_COLUMNS if c != "holm_p"] + ["holm_p"])
    out["holm_p"] = holm(out["wilcoxon_p"].tolist())
    return out[list(SUMMARY_COLUMNS)]


def write_summary(summary: pd.DataFrame, path: Path) -> None:
    summary.to_csv(path, index=False, float_format="%.6g", na_rep="NA")


def _f(v: Any, spec: str) -> str:
    return "NA" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def format_summary(summary: pd.DataFrame) -> str:
    """A fixed-width table for the terminal."""
    head = (
        f"{'case':<26s} {'test':<14s} {'ref status':<12s} {'n':>3s} {'inv':>3s} {'mean':>9s} {'95% CI':>21s} "
        f"{'dz':>6s} {'wilcoxon p':>10s} {'0s':>3s} {'holm p':>8s} {'tost p':>8s}"
    )
    lines = [head, "-" * len(head)]
    for r in summary.itertuples():
        ci = "NA" if math.isnan(r.ci_low) else f"[{r.ci_low:+.4f}, {r.ci_high:+.4f}]"
        lines.append(
            f"{str(r.case)[:26]:<26s} {str(r.test)[:14]:<14s} {str(r.reference_status)[:12]:<12s} {r.n:>3d} "
            f"{r.invalid:>3d} {_f(r.mean, '+.4f'):>9s} {ci:>21s} {_f(r.dz, '+.2f'):>6s} "
            f"{_f(r.wilcoxon_p, '.4g'):>10s} {r.zeros_dropped:>3d} {_f(r.holm_p, '.4g'):>8s} "
            f"{_f(r.tost_p, '.4g'):>8s}"
        )
    return "\n".join(lines)
