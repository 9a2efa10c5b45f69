"""The pilot's score convention beside our lift (`mam-bench report DIR --pilot-score`).

A case scores direction x sum(points x delta) over the metrics its world gives points to
(`Scoring.pilot_points`), unclamped; the Combined Benchmark Score is the plain sum over the
suite's own cases, in the suite's order. A world without points has no pilot score."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError


def case_score(world_cls: Any, objective: str, delta: float, secondary_delta: float | None) -> float | None:
    """One case's pilot score (None: the world declares no points)."""
    scoring = world_cls.scoring
    points = scoring.pilot_points
    if not points:
        return None
    deltas = {scoring.metric: delta, scoring.secondary: secondary_delta}
    missing = [m for m in points if deltas.get(m) is None or math.isnan(deltas[m])]
    if missing:
        raise ConfigError("dir", f"the table has no delta of {missing[0]!r}, which the pilot score needs")
    return scoring.objectives[objective] * sum(p * deltas[m] for m, p in points.items())


def pilot_score_text(folder: Path) -> str:
    """Each of the suite's own pairs (table order): case, seed, our lift and the pilot's score; then the sum."""
    from mam_bench.experiment.table import read_table
    from mam_bench.registry import get_world

    df = read_table(folder / "table.csv")
    rows = df[df["role"] == "case"]
    lines = [f"{'case':<52} {'seed':>6} {'lift':>9} {'pilot score':>12}"]
    total, unscored = 0.0, 0
    for _, r in rows.iterrows():
        secondary = None if str(r["secondary_metric"]) in ("", "nan") else float(r["secondary_delta"])
        score = case_score(get_world(str(r["world"])), str(r["objective"]), float(r["delta"]), secondary)
        if score is None:
            unscored += 1
        else:
            total += score
        shown = "n/a" if score is None else f"{score:+.2f}"
        lines.append(f"{str(r['case'])[:52]:<52} {int(r['seed']):>6} {float(r['lift']):>+9.4f} {shown:>12}")
    lines.append(f"Combined Benchmark Score: {total:+.2f} (sum of {len(rows) - unscored} case scores)")
    if unscored:
        lines.append(f"{unscored} pairs of worlds without a pilot score are left out of the sum")
    return "\n".join(lines) + "\n"
