"""The summary as a Markdown table, the form the README's results tables take, so that a table
in a paper or README is printed by the tool rather than retyped from `summary.csv`."""

from __future__ import annotations

import csv
import math
from pathlib import Path

HEADER = (
    "| case | test | status | n | mean | median | SD | 95% CI | dz | lift > 0 | Wilcoxon p (0s dropped) | Holm p |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
)


def _num(text: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def _signed(text: str, digits: int) -> str:
    v = _num(text)
    return "NA" if math.isnan(v) else f"{v:+.{digits}f}"


def _sig(text: str) -> str:
    v = _num(text)
    return "NA" if math.isnan(v) else f"{v:.4g}"


def _holm(row: dict[str, str]) -> str:
    """Holm p; a row outside the family says so (a mirror carries its row's p and names it)."""
    if row.get("in_family", "True") in ("True", "true", "1"):
        return _sig(row["holm_p"])
    if row.get("mirror_of"):
        return f"{_sig(row['holm_p'])} (= {row['mirror_of']})"
    return "not in family"


def summary_markdown(summary_csv: Path, split: bool = True) -> str:
    """One row per case and test (lift, vs stay, vs mimic, ...), with the rows per reference
    terminal status and the intention-to-treat rows; without `split`, no per-status rows."""
    with open(summary_csv, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    lines = list(HEADER)
    for r in rows:
        if not split and r["reference_status"] != "all":
            continue
        low, high = _num(r["ci_low"]), _num(r["ci_high"])
        ci = "NA" if math.isnan(low) or math.isnan(high) else f"[{low:+.4f}, {high:+.4f}]"
        share = _signed(r["positive_share"], 2).lstrip("+") if r["test"] == "lift" else ""
        wilcoxon = f"{_sig(r['wilcoxon_p'])} ({r['zeros_dropped']})"
        sd = _num(r["sd"])
        cells = [
            r["case"],
            r["test"],
            r["reference_status"],
            r["n"],
            _signed(r["mean"], 4),
            _signed(r.get("median", "NA"), 4),
            "NA" if math.isnan(sd) else f"{sd:.4f}",
            ci,
            _signed(r["dz"], 2),
            share,
            wilcoxon,
            _holm(r),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
