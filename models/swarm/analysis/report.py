"""`mam-bench report DIR --analysis swarm`: the correlation tables and the attribution ranking, as text."""

from __future__ import annotations

import math
from pathlib import Path

from mam_bench.errors import ConfigError
from mam_bench.models.swarm.analysis.attribution import attribute
from mam_bench.models.swarm.analysis.correlations import POOLED, correlations
from mam_bench.models.swarm.analysis.embeddings import message_embedder
from mam_bench.models.swarm.analysis.games import distinct, load_games

TITLES = {
    "physical": "Physical dynamics vs score (game mean of each metric; Pearson r, p, n games)",
    "messages": "Message statistics vs score (game mean)",
    "convergence": "Protocol convergence vs score (increase: last-quartile minus first-quartile mean)",
}
TOP = 10


def _cell(r: float, p: float, n: int) -> str:
    if math.isnan(r):
        return f"NA (n={n})"
    star = "*" if p < 0.05 else ""
    return f"{r:+.3f}{star} (p={p:.3g}, n={n})"


def score_table(games: list) -> list[str]:
    """Each case's all-agents score, mean and population SD over its games (upstream's score_agg):
    the paper's number. Lift tables count ordinary agents, of which the SwarmBench protocol has none."""
    import numpy as np

    lines = ["Score per case (all agents' score at the last round; mean +- SD over games, as the paper)"]
    cases = dict.fromkeys(g.case for g in games)
    width = max(len(c) for c in cases)
    for case in cases:
        s = [g.score for g in games if g.case == case]
        lines.append(f"  {case:<{width}}  {np.mean(s):8.2f} +- {np.std(s):.2f}  (n={len(s)})")
    return lines + [""]


def analyse(folder: Path) -> str:
    from mam_bench.extras import require

    require("analysis")
    games = load_games(folder)
    if not games:
        raise ConfigError("dir", f"{folder} holds no valid swarm pairs to analyse")
    tasks = sorted({g.task for g in games})
    unique = distinct(games)
    out = [
        f"SwarmBench analysis of {folder}: {len(games)} games (treatment runs of the suite's cases), "
        f"{len(unique)} distinct trajectories; the correlations count each distinct one once",
        "",
    ]
    out += score_table(games)
    cors = correlations(unique)
    columns = [*tasks, POOLED]
    for table, title in TITLES.items():
        out.append(title)
        width = max(len(c.metric) for c in cors if c.table == table)
        out.append(f"{'metric':<{width}}  " + "  ".join(f"{t:<28}" for t in columns))
        for metric in dict.fromkeys(c.metric for c in cors if c.table == table):
            cells = {c.task: c for c in cors if c.table == table and c.metric == metric}
            out.append(
                f"{metric:<{width}}  " + "  ".join(f"{_cell(cells[t].r, cells[t].p, cells[t].n):<28}" for t in columns)
            )
        out.append("")
    out.append(
        "NA: fewer than 3 games, or the metric or the score does not vary; * p < 0.05; "
        "pooled: every task's games, metric and score as standard scores within their task"
    )
    out.append("")
    embedder, how = message_embedder()
    out.append(f"Action attribution: random forest, permutation importance on held-out decisions; messages: {how}")
    for task in tasks:
        att = attribute(task, [g for g in games if g.task == task], embedder)
        if att is None:
            out.append(f"{task}: too few decisions or a single action; no attribution")
            continue
        out.append(
            f"{task}: {att.samples} decisions, held-out accuracy {att.accuracy:.3f} "
            f"(commonest action {att.majority:.3f}; held out: 30% of the {att.held_out})"
        )
        out.append("  groups: " + ", ".join(f"{g.name} {g.mean:+.4f}±{g.std:.4f}" for g in att.groups))
        for rank, f in enumerate(att.features[:TOP], 1):
            out.append(f"  {rank:>2}. {f.name:<22} {f.group:<12} {f.mean:+.4f} ± {f.std:.4f}")
    return "\n".join(out) + "\n"
