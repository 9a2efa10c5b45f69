"""Scores read from a v3 ceiling file alone: it holds every source's lift (the oracle, greedy, the
heuristic, random) and the placebos' per scenario and seed, so a calibration's entry conditions,
the local tier's agreement with the ranking tier and the intervals' coverage need no other play.

A row's score in a scenario is the leaderboard's (mam_bench.benchmark.leaderboard_v3): its share of
the ceiling's headroom over the best placebo, Fieller's interval; a world's is the mean of its
scenarios', the aggregate the mean of the worlds' with the delta-method t-interval over seeds.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats as sps

from mam_bench.benchmark.headroom import (
    Estimate,
    Headroom,
    aggregate,
    as_v3,
    contributions,
    headroom,
    seed_contributions,
    share,
)
from mam_bench.errors import ConfigError

#: the rows a ceiling file scores, in the order they are printed
ROWS = ("oracle", "greedy", "heuristic", "random", "stay", "mimic", "rule")
#: the controllers an entry condition (b) may be met by: the ones we ship that are not placebos
STEERING = ("oracle", "greedy", "heuristic", "random")
#: the local tier ships only where its ranking agrees with the ranking tier's at least this much
AGREEMENT = 0.8
#: what every ceiling file holds (`mam_bench.benchmark.ceiling.summarise` writes them)
CEILING_KEYS = ("benchmark", "tier", "seeds", "scenarios")


def read_ceiling(path: str | Path, field: str = "ceiling") -> dict[str, Any]:
    """A ceiling file given by path, or a ConfigError naming `field` (missing, not JSON, or not a
    ceiling file), so a check refuses it in one line instead of a traceback."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(field, f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(field, f"{path} is not a JSON file ({type(exc).__name__})") from None
    missing = [k for k in CEILING_KEYS if not isinstance(data, dict) or k not in data]
    if missing:
        raise ConfigError(field, f"{path} is not a ceiling file (no {missing[0]!r}; mam-bench ceiling writes them)")
    return data


def scenario_headroom(cells: list[dict[str, Any]]) -> Headroom:
    """The ceiling's headroom over the best placebo on these seed cells, with v2's reason where its
    interval holds 0 (what an entry condition reads; the board scores it all the same)."""
    ceiling = [c["ceiling"] for c in cells]
    placebos = {p: [c["placebos"][p] for c in cells] for p in cells[0]["placebos"]}
    return headroom(ceiling, placebos)


def scenario_share(
    cells: list[dict[str, Any]], row: str, head: Headroom | None = None
) -> tuple[Estimate, np.ndarray] | None:
    """A row's v3 score in one scenario on these seed cells with its per-seed contributions; None
    where the board says NA (a headroom of float noise) or the row did not play every seed. `head`:
    the scenario's headroom on these cells, where the caller has it."""
    head = as_v3(head or scenario_headroom(cells))
    lifts = [c["lifts"].get(row) for c in cells]
    if not head.scoreable or any(v is None for v in lifts):
        return None
    est = share(lifts, head)
    return est, contributions(lifts, head, est.value)


def world_scores(data: dict[str, Any], seeds: list[str], row: str) -> dict[str, list[tuple[float, np.ndarray]]]:
    """world -> [(score, per-seed contributions)] of its scored scenarios, on these seeds."""
    out: dict[str, list[tuple[float, np.ndarray]]] = {}
    for s in data["scenarios"].values():
        parts = scenario_share([s["seeds"][k] for k in seeds], row)
        if parts is not None:
            out.setdefault(s["world"], []).append((parts[0].value, parts[1]))
    return out


def scored_scenarios(data: dict[str, Any]) -> list[str]:
    """The scenarios the board scores on the file's seeds: headroom above float noise (a v3
    definition's scored set is fixed; a scenario outside this on some block is its failure)."""
    seeds = seeds_of(data)
    return sorted(
        name
        for name, s in data["scenarios"].items()
        if as_v3(scenario_headroom([s["seeds"][k] for k in seeds])).scoreable
    )


def seeds_of(data: dict[str, Any]) -> list[str]:
    return [str(s) for s in data["seeds"]]


@dataclass(frozen=True)
class Entry:
    """One scenario's entry conditions on calibration seeds."""

    scenario: str
    world: str
    headroom: Estimate
    placebo: str
    #: row -> its score there (NaN where it has none)
    shares: dict[str, float]
    why_not: str

    @property
    def enters(self) -> bool:
        return not self.why_not


def entries(data: dict[str, Any]) -> list[Entry]:
    """Per scenario: (a) the ceiling's headroom over the best placebo has a 95% interval above 0,
    and (b) some controller we ship sits strictly between the placebo (0) and the ceiling (1)."""
    seeds = seeds_of(data)
    out = []
    for name, s in data["scenarios"].items():
        cells = [s["seeds"][k] for k in seeds]
        head = scenario_headroom(cells)
        shares = {}
        for row in ROWS:
            parts = scenario_share(cells, row, head)
            shares[row] = parts[0].value if parts is not None else math.nan
        inside = [r for r in STEERING if 0 < shares[r] < 1 - head.floor]
        if head.reason:
            why = f"(a) {head.reason}"
        elif not inside:
            why = "(b) no controller we ship is strictly between the best placebo and the ceiling"
        else:
            why = ""
        out.append(Entry(name, s["world"], head.estimate, head.placebo, shares, why))
    return out


def aggregate_of(data: dict[str, Any], row: str) -> Estimate:
    """A row's aggregate score over the file's seeds, with its interval (the board's)."""
    return aggregate(world_scores(data, seeds_of(data), row))


def per_seed(data: dict[str, Any], row: str) -> np.ndarray | None:
    """A row's per-seed aggregate contributions on the file's seeds (the aggregate is their mean)."""
    worlds = world_scores(data, seeds_of(data), row)
    return seed_contributions([[c for _, c in parts] for parts in worlds.values()]) if worlds else None


def world_means(data: dict[str, Any]) -> dict[str, dict[str, float]]:
    """world -> row -> the row's world score (the mean of its scenarios') on every seed of the file."""
    out: dict[str, dict[str, float]] = {}
    for row in ROWS:
        for world, parts in world_scores(data, seeds_of(data), row).items():
            out.setdefault(world, {})[row] = float(np.mean([v for v, _ in parts]))
    return out


def agreement(local: dict[str, Any], ranking: dict[str, Any]) -> dict[str, tuple[float, int]]:
    """world -> (Kendall's tau-b between the two tiers' orderings of the rows, rows compared), for
    the worlds both score; NaN where either tier ranks every row alike."""
    a, b = world_means(local), world_means(ranking)
    out = {}
    for world in sorted(set(a) & set(b)):
        rows = [r for r in ROWS if r in a[world] and r in b[world]]
        x, y = [a[world][r] for r in rows], [b[world][r] for r in rows]
        tau = float(sps.kendalltau(x, y).statistic) if len(rows) >= 2 else math.nan
        out[world] = (tau, len(rows))
    return out
