"""The leaderboard of `score: v3` folders: every row against the benchmark's shipped ceiling.

A v3 folder plays only its controller's pairs; the ceiling (the best lift any known plan reached
per scenario and seed) and the placebos' lifts come from the shipped ceiling, copied into the
folder's manifest when it was played. The score is v2's share of the headroom with the ceiling as
1 (mam_bench.benchmark.headroom), but the scored set is the definition's: a scenario is never
dropped for its interval in a folder (only a headroom of about 0, which a v3 definition must not
hold, leaves a scenario NA, named under the table).

What the board says beyond v2's:
- **seeds above the ceiling**: scenario-seeds where a row's lift is above the ceiling's (by more
  than float noise). Nonzero flags the row: its plans should raise the next version's ceiling.
- **ties on every seed**: a row whose lift equals the ceiling's, or one placebo's, on every seed of
  a scenario reads so, not as an interval of zero width.
- **seeds for ±0.1**: how many seeds would give a 95% interval of half-width 0.1 on the difference
  of two rows with this row's spread (its per-seed aggregate contributions).
- A `smoke` tier (a pipeline check) prints no ranking: rows are listed in a fixed order, with no
  aggregate interval.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from mam_bench.benchmark.headroom import (
    Estimate,
    Headroom,
    contributions,
    seed_contributions,
    seeds_for,
    share,
    t_quantile,
    v3_headroom,
)
from mam_bench.benchmark.leaderboard_v2 import (
    Played,
    ScenarioV2,
    WorldsBoard,
    _account,
    _ci,
    _complete,
    _decided,
    _lifts,
    _num,
)
from mam_bench.pricing import ACCOUNT_COLUMNS

#: the placebos' and the ceiling's rows, listed before the folders' rows (their lifts are shipped)
SHIPPED = ("ceiling", "rule", "stay", "mimic")
#: the difference two rows should be told apart at, for the seed-count column
SEPARATE = 0.1

DEFINITION_V3 = (
    "Score (v3) per scenario: (mean lift - best placebo's mean lift) / (ceiling's mean lift - best "
    "placebo's mean lift), over the tier's seeds, against the benchmark's shipped ceiling (the best "
    "lift any known plan reached on each seed) and placebos (rule, stay, mimic): 0 = the best placebo, "
    "1 = the ceiling, not clipped. The scored set is the definition's. Per scenario: Fieller's 95% "
    "interval, or 'ties ... on every seed'; the aggregate: the mean over worlds, its 95% t-interval over "
    "the seeds (delta method). 'above ceiling': scenario-seeds where the row beat the shipped ceiling. "
    "'seeds for ±0.1': seeds that would separate two rows 0.1 apart with this row's spread."
)


class BoardV3(WorldsBoard):
    def __init__(self, manifest: dict[str, Any], scenarios: dict[str, ScenarioV2], rows: list[Played]):
        self.benchmark = manifest["benchmark"]
        self.tier = manifest["tier"]
        self.purpose = manifest.get("purpose") or ""
        self.seeds = [int(s) for s in manifest["seeds"]]
        self.scenarios = scenarios
        self.worlds = list(dict.fromkeys(s.world for s in scenarios.values()))
        self.rows = rows
        #: row label -> scenario -> text that replaces its interval (a tie on every seed)
        self.ties: dict[str, dict[str, str]] = {}
        #: row label -> scenario-seeds above the ceiling
        self.above: dict[str, int] = {}

    def per_seed(self, row: Played) -> np.ndarray | None:
        """The row's per-seed aggregate contributions (the aggregate is their mean)."""
        worlds: dict[str, list[np.ndarray]] = {}
        for name, s in self.scenarios.items():
            if name in row.parts and s.world in self.covers(row):
                worlds.setdefault(s.world, []).append(row.parts[name])
        return seed_contributions(list(worlds.values())) if worlds else None

    def seeds_to_separate(self, row: Played) -> int | None:
        """Seeds for a 95% half-width of SEPARATE on a difference of two rows of this spread."""
        return seeds_for(self.per_seed(row), SEPARATE)


def _tie(lifts: np.ndarray, ceiling: np.ndarray, placebos: dict[str, np.ndarray], head: Headroom) -> str:
    """'ties X on every seed' where the row's lift is X's on every seed: the ceiling, then the best
    placebo (the score's 0), then the others; '' otherwise."""
    if np.all(np.abs(lifts - ceiling) <= head.floor):
        return "ties the ceiling on every seed"
    for p in sorted(placebos, key=lambda p: p != head.placebo):
        if np.all(np.abs(lifts - placebos[p]) <= head.floor):
            return f"ties {p} on every seed"
    return ""


def _cell(est: Estimate, head: Headroom) -> str:
    """A score and its interval; Fieller's set is no bounded interval where the headroom's own
    interval holds 0 (a v3 scenario is scored all the same), and says so."""
    if head.estimate.low <= 0 <= head.estimate.high:
        return f"{_num(est.value)} (interval unbounded: the headroom's holds 0)"
    if not math.isnan(est.low) and est.high - est.low <= 1e-12:
        return f"{_num(est.value)} (every seed alike)"
    return _ci(est)


def build_board_v3(folders: list[Path], manifests: list[dict[str, Any]], collected: list[dict]) -> BoardV3:
    first = manifests[0]
    seeds = [int(s) for s in first["seeds"]]
    shipped = first["ceiling"]["scenarios"]
    scenarios = {s["name"]: ScenarioV2(s["name"], s["world"], s["objective"]) for s in first["scenarios"]}
    ceilings: dict[str, np.ndarray] = {}
    placebo_lifts: dict[str, dict[str, np.ndarray]] = {}
    for name, info in scenarios.items():
        cells = shipped[name]["seeds"]
        ceilings[name] = np.asarray([cells[str(s)]["ceiling"] for s in seeds], dtype=float)
        names = cells[str(seeds[0])]["placebos"]
        placebo_lifts[name] = {p: np.asarray([cells[str(s)]["placebos"][p] for s in seeds], dtype=float) for p in names}
        info.heads.append(v3_headroom(ceilings[name], placebo_lifts[name]))
    rows: list[Played] = []
    for label in SHIPPED:
        row = Played(label, "", -1)
        for name in scenarios:
            lifts = ceilings[name] if label == "ceiling" else placebo_lifts[name].get(label)
            if lifts is not None:
                row.lifts[name] = dict(zip(seeds, map(float, lifts)))
        if row.lifts:
            rows.append(row)
    played: dict[tuple[str, str], Played] = {}
    for k, cells in enumerate(collected):
        for (name, role, controller, model), by_seed in cells.items():
            if role != "entry" or name not in scenarios:
                continue
            row = played.setdefault((controller, model), Played(controller, model, k))
            _account(row, [r for rs in by_seed.values() for r in rs])
            _decided(row, folders[k], scenarios[name], by_seed)
            row.lifts[name] = _lifts(by_seed, seeds)
    rows.extend(played.values())
    board = BoardV3(first, scenarios, rows)
    for row in rows:
        ties, above = {}, 0
        for name, info in scenarios.items():
            head = info.heads[0]
            lifts = _complete(row.lifts.get(name, {}), seeds)
            if lifts is None or not isinstance(head, Headroom):
                continue
            above += int(np.sum(lifts > ceilings[name] + head.floor))
            if info.reason:
                continue
            row.scores[name] = share(lifts, head)
            row.parts[name] = contributions(lifts, head, row.scores[name].value)
            tie = _tie(lifts, ceilings[name], placebo_lifts[name], head)
            if tie:
                ties[name] = tie
        board.ties[row.label] = ties
        board.above[row.label] = above
    return board


def _world_cell(board: BoardV3, row: Played, world: str) -> str:
    if world not in board.covers(row):
        return "NA"
    return _num(float(np.mean([e.value for n, e in row.scores.items() if board.scenarios[n].world == world])))


def tables_v3(board: BoardV3) -> dict[str, tuple[list[str], list[list[str]]]]:
    smoke = board.purpose == "smoke"
    head = [
        "controller",
        "model",
        "score" if smoke else "score [95% CI]",
        *board.worlds,
        "above ceiling",
        "seeds for ±0.1",
        *ACCOUNT_COLUMNS,
    ]
    scored = board.scored_worlds()
    ranked = [(board.aggregate(r), r) for r in board.rows]
    if not smoke:
        ranked.sort(key=lambda t: -t[0].value if not math.isnan(t[0].value) else math.inf)
    body = []
    for est, row in ranked:
        covered = board.covers(row)
        if not scored:
            score = "NA (no scenario is scored)"
        elif len(covered) < len(scored):
            score = f"not ranked ({len(covered)}/{len(scored)} scored worlds)"
        elif smoke:
            score = _num(est.value)
        elif len(board.ties.get(row.label, {})) == sum(not s.reason for s in board.scenarios.values()):
            kinds = set(board.ties[row.label].values())
            score = f"{_num(est.value)} ({kinds.pop() if len(kinds) == 1 else 'ties a row on every seed'})"
        else:
            score = _ci(est)
        need = board.seeds_to_separate(row)
        above = board.above.get(row.label, 0)
        body.append(
            [
                row.controller,
                row.model or "-",
                score,
                *(_world_cell(board, row, w) for w in board.worlds),
                f"{above} (beats the ceiling)" if above and row.controller != "ceiling" else str(above),
                "NA" if need is None else str(need),
                str(row.calls),
                str(row.tokens),
                f"{row.cost:.4f}",
                f"{row.wall:.1f}",
                str(row.invalid),
            ]
        )
    shead = [
        "scenario",
        "world",
        "objective",
        "best placebo",
        "headroom [95% CI]",
        "scored",
        *(r.label for _, r in ranked),
    ]
    sbody = []
    for name, s in board.scenarios.items():
        h = s.heads[0]
        line = [
            name,
            s.world,
            s.objective,
            h.placebo if isinstance(h, Headroom) else "NA",
            _room(h.estimate) if isinstance(h, Headroom) else "NA",
            "yes" if not s.reason else f"NA: {s.reason}",
        ]
        for _, r in ranked:
            tie = board.ties.get(r.label, {}).get(name)
            if tie:
                line.append(tie)
            elif name in r.scores:
                line.append(_num(r.scores[name].value) if smoke else _cell(r.scores[name], s.heads[0]))
            else:
                line.append("NA")
        sbody.append(line)
    return {"ranked": (head, body), "scenarios": (shead, sbody)}


def _room(e: Estimate) -> str:
    return f"{e.value:.3g}" if math.isnan(e.low) else f"{e.value:.3g} [{e.low:.3g}, {e.high:.3g}]"


def notes_v3(board: BoardV3) -> list[str]:
    out = []
    if board.purpose == "smoke":
        out.append(
            f"Tier {board.tier} is a smoke tier: it checks the pipeline on {len(board.seeds)} seeds and makes "
            "no ranking claim (rows in a fixed order, no intervals)."
        )
    beaten = [r.label for r in board.rows if r.controller != "ceiling" and board.above.get(r.label)]
    if beaten:
        out.append(
            "Above the shipped ceiling: "
            + ", ".join(f"{b} on {board.above[b]} scenario-seeds" for b in beaten)
            + ". Their plans raise the next version's ceiling (mam-bench ceiling plays them with its sources)."
        )
    left = [w for w in board.worlds if w not in board.scored_worlds()]
    if left:
        out.append(f"Worlds with no scored scenario (no headroom in the shipped ceiling): {', '.join(left)}.")
    n = len(board.seeds)
    if n >= 2:
        out.append(
            f"At {n} seeds a 95% interval is ±t({n - 1}) sd/sqrt(n), t = {t_quantile(n):.2f}; 'seeds for ±0.1' "
            "uses the normal 1.96 and the row's own spread, doubled in variance for a difference of two rows."
        )
    return out
