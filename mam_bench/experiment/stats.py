"""Honest statistics per case and controller: mean lift, SD, a seeded bootstrap 95% CI, the
share of positive lift and a Wilcoxon signed-rank test of treatment against the reference at
the same round (the value the lift compares with)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

SUMMARY_COLUMNS = ("case", "controller", "model", "world", "metric", "n", "mean_lift", "sd_lift",
                   "ci_low", "ci_high", "positive_share", "wilcoxon_p", "calls", "cost")


def bootstrap_ci(values: np.ndarray, seed: int = 0, resamples: int = 10_000, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap of the mean; seeded so a summary is reproducible."""
    if values.size == 0:
        return math.nan, math.nan
    if values.size == 1 or np.all(values == values[0]):
        return float(values[0]), float(values[0])
    rng = np.random.default_rng(seed)
    means = rng.choice(values, size=(resamples, values.size), replace=True).mean(axis=1)
    a = (1 - level) / 2
    return float(np.quantile(means, a)), float(np.quantile(means, 1 - a))


def wilcoxon_p(treatment: np.ndarray, reference: np.ndarray) -> float:
    """Two-sided paired signed-rank p; 1.0 when every pair is tied (no effect at all)."""
    diff = treatment - reference
    if diff.size == 0:
        return math.nan
    if np.all(diff == 0):
        return 1.0
    try:
        return float(sps.wilcoxon(treatment, reference, zero_method="wilcox").pvalue)
    except ValueError:
        return math.nan


def summarize(df: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """One row per case and controller, in the order cases first appear."""
    rows = []
    if df.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    for (case, controller), g in df.groupby(["case", "controller"], sort=False):
        lift = g["lift"].to_numpy(dtype=float)
        lo, hi = bootstrap_ci(lift, seed)
        rows.append({
            "case": case, "controller": controller, "model": g["model"].iloc[0], "world": g["world"].iloc[0],
            "metric": g["metric"].iloc[0], "n": int(lift.size), "mean_lift": float(lift.mean()),
            "sd_lift": float(lift.std(ddof=1)) if lift.size > 1 else 0.0, "ci_low": lo, "ci_high": hi,
            "positive_share": float((lift > 0).mean()),
            "wilcoxon_p": wilcoxon_p(g["treatment_final"].to_numpy(float), g["reference_compared"].to_numpy(float)),
            "calls": int(g["calls"].sum()), "cost": float(g["cost"].sum()),
        })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def write_summary(summary: pd.DataFrame, path: Path) -> None:
    summary.to_csv(path, index=False, float_format="%.6g")


def format_summary(summary: pd.DataFrame) -> str:
    """A fixed-width table for the terminal."""
    head = f"{'case':<28s} {'controller':<10s} {'n':>4s} {'mean lift':>10s} {'sd':>9s} {'95% CI':>21s} {'>0':>5s} {'wilcoxon p':>10s}"
    lines = [head, "-" * len(head)]
    for r in summary.itertuples():
        ci = f"[{r.ci_low:+.4f}, {r.ci_high:+.4f}]"
        lines.append(f"{str(r.case)[:28]:<28s} {r.controller:<10s} {r.n:>4d} {r.mean_lift:>+10.4f} {r.sd_lift:>9.4f} "
                     f"{ci:>21s} {r.positive_share:>5.2f} {r.wilcoxon_p:>10.4g}")
    return "\n".join(lines)
