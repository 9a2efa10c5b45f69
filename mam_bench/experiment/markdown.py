"""The summary as a Markdown table, the form the README's results tables take, so that a table
in a paper or README is printed by the tool rather than retyped from `summary.csv`."""

from __future__ import annotations

import csv
from pathlib import Path

from mam_bench.numbers import interval, p_value, plain, signed

HEADER = (
    "| case | test | status | n | mean | median | SD | 95% CI | dz | lift > 0 | Wilcoxon p (0s dropped) | Holm p |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
)


def _holm(row: dict[str, str]) -> str:
    """Holm p; a row outside the family says so (a mirror carries its row's p and names it)."""
    if row.get("in_family", "True") in ("True", "true", "1"):
        return p_value(row["holm_p"])
    if row.get("mirror_of"):
        return f"{p_value(row['holm_p'])} (= {row['mirror_of']})"
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
        share = plain(r["positive_share"], 2) if r["test"] == "lift" else ""
        wilcoxon = f"{p_value(r['wilcoxon_p'])} ({r['zeros_dropped']})"
        cells = [
            r["case"],
            r["test"],
            r["reference_status"],
            r["n"],
            signed(r["mean"]),
            signed(r.get("median")),
            plain(r["sd"]),
            interval(r["ci_low"], r["ci_high"]),
            signed(r["dz"], 2),
            share,
            wilcoxon,
            _holm(r),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" + verdict_markdown(summary_csv)


def verdict_markdown(summary_csv: Path) -> str:
    """Under the table, the report's verdict per case: its lift beyond the best placebo, with the
    CI over seeds, and whether it steers."""
    import pandas as pd

    from mam_bench.experiment.stats import verdicts

    said = verdicts(pd.read_csv(summary_csv))
    return ("\nVerdict per case (the lift beyond the best placebo, 95% CI over seeds):\n\n" if said else "") + "".join(
        f"- {line}\n" for line in said
    )
