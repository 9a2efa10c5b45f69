"""Group-dynamics metrics against score across games: the paper's correlation tables.

Physical dynamics (Fig. 3, App. L.5): each metric's mean over a game's rounds against the game's
final score. Protocol convergence (App. L.6, Table S.8): the increase of information homogeneity
and of edit-distance consistency over a game, last-quartile mean minus first-quartile mean of
the rounds with messages, against score. Pearson r with its two-sided p, per task.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mam_bench.models.swarm.analysis.games import Game

PHYSICAL = (
    "directional_entropy",
    "stillness_proportion",
    "dominant_action_prop",
    "polarization_index",
    "avg_moving_distance",
    "exploration_rate",
    "local_structure_preservation",
    "agent_push_events",
    "action_gini",
    "visibility_components",
    "separation_force",
)
MESSAGES = (
    "mean_message_length",
    "std_message_length",
    "prop_question_sentences",
    "prop_digit_chars",
    "norm_mean_message_embedding",
)
CONVERGENCE = ("info_homogeneity", "edit_consistency")


@dataclass(frozen=True)
class Correlation:
    task: str
    table: str  # "physical", "messages" or "convergence"
    metric: str
    r: float
    p: float
    n: int


def game_mean(game: Game, metric: str) -> float:
    values = [r["metrics"][metric] for r in game.rounds[1:] if metric in r["metrics"]]
    return float(np.mean(values)) if values else math.nan


def increase(game: Game, metric: str) -> float:
    """Last-quartile mean minus first-quartile mean over the rounds that carried messages."""
    values = [r["metrics"][metric] for r in game.rounds[1:] if any(r.get("messages") or ())]
    if len(values) < 4:
        return math.nan
    q = len(values) // 4
    return float(np.mean(values[-q:]) - np.mean(values[:q]))


def pearson(x: list[float], y: list[float]) -> tuple[float, float, int]:
    """(r, p, n) over the finite pairs; NaN when fewer than 3 or either side is constant."""
    from scipy import stats

    pts = [(a, b) for a, b in zip(x, y) if math.isfinite(a) and math.isfinite(b)]
    if len(pts) < 3:
        return math.nan, math.nan, len(pts)
    xs, ys = np.array(pts).T
    if np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return math.nan, math.nan, len(pts)
    res = stats.pearsonr(xs, ys)
    return float(res.statistic), float(res.pvalue), len(pts)


def _z(values: list[float]) -> list[float]:
    """Standard scores over the finite values; NaN for all when they do not vary or are fewer
    than 3 (two games standardise to +-1 whatever they hold, which would fake a perfect r)."""
    finite = [v for v in values if math.isfinite(v)]
    if len(finite) < 3 or np.std(finite) == 0:
        return [math.nan] * len(values)
    mean, sd = float(np.mean(finite)), float(np.std(finite))
    return [(v - mean) / sd if math.isfinite(v) else math.nan for v in values]


TABLES = (("physical", PHYSICAL, game_mean), ("messages", MESSAGES, game_mean), ("convergence", CONVERGENCE, increase))
#: the column that pools every task: metric and score as standard scores within each task
POOLED = "pooled"


def correlations(games: list[Game]) -> list[Correlation]:
    """Per task, and pooled over tasks (within-task standard scores, so no task's scale dominates)."""
    out = []
    tasks = sorted({g.task for g in games})
    for table, metrics, of in TABLES:
        for m in metrics:
            zx, zy = [], []
            for task in tasks:
                mine = [g for g in games if g.task == task]
                x, y = [of(g, m) for g in mine], [g.score for g in mine]
                r, p, n = pearson(x, y)
                out.append(Correlation(task, table, m, r, p, n))
                zx += _z(x)
                zy += _z(y)
            r, p, n = pearson(zx, zy)
            out.append(Correlation(POOLED, table, m, r, p, n))
    return out
