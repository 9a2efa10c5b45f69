"""The leaderboard of `score: v2` folders (the score of mam_bench.benchmark.headroom).

Every folder holds its own placebos (stay, mimic, rule) and oracle on the same seeds, and each
folder's rows are scored against those. A scenario is scored on the board only where its headroom
is shown in every folder, so that all rows are scored on the same scenarios; a world enters the
aggregate when it has such a scenario. A row is ranked only when it has a score in every scored
scenario (a valid pair on every seed); the others are listed apart, labelled, never ranked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mam_bench.benchmark.decisions import first_decisions, pair_validity
from mam_bench.benchmark.headroom import PLACEBOS, Estimate, Headroom, aggregate, contributions, headroom, share
from mam_bench.errors import ConfigError
from mam_bench.pricing import ACCOUNT_COLUMNS, cost_cell

DEFINITION_V2 = (
    "Score (v2) per scenario: (mean lift - best placebo's mean lift) / (oracle's mean lift - best "
    "placebo's mean lift), over the folder's seeds, against the folder's own placebos (rule, stay, "
    "mimic) and oracle: 0 = the best placebo, 1 = the oracle, not clipped (above 1 beats the oracle). "
    "A scenario is scored only where the oracle's headroom has a 95% t-interval above 0 (else NA, with "
    "the reason). Per scenario: Fieller's 95% interval; a world's column: the mean of its scored "
    "scenarios; the aggregate: the mean over worlds with a scored scenario, its 95% t-interval over the "
    "seeds (delta method). Ranked: rows with a score in every scored scenario."
)


@dataclass
class Played:
    """One controller and model of one folder: its valid lifts per scenario and seed, and cost."""

    controller: str
    model: str
    folder: int
    lifts: dict[str, dict[int, float]] = field(default_factory=dict)
    invalid: int = 0
    calls: int = 0
    tokens: int = 0
    cost: float = 0.0
    wall: float = 0.0
    scores: dict[str, Estimate] = field(default_factory=dict)
    parts: dict[str, np.ndarray] = field(default_factory=dict)
    #: decisions of its treatments, and those that became a policy_error (no legal action parsed)
    decisions: int = 0
    policy_errors: int = 0
    #: (scenario pair, seed) -> objective -> the round-0 decision of each agent (objective sensitivity)
    first_round: dict[tuple[str, int], dict[str, dict[int, str]]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.controller} {self.model}".strip()


@dataclass
class ScenarioV2:
    name: str
    world: str
    objective: str
    #: per folder: its headroom, or why it has none (a missing oracle or placebo pair)
    heads: list[Headroom | str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        """'' when scored on the board, else why not (the first folder's reason)."""
        for k, h in enumerate(self.heads):
            why = h if isinstance(h, str) else h.reason
            if why:
                return why if len(self.heads) == 1 else f"folder {k + 1}: {why}"
        return ""


class WorldsBoard:
    """What v2's and v3's boards share: the aggregate is a mean over the worlds where a row has
    every scored scenario."""

    worlds: list[str]
    scenarios: dict[str, Any]

    def scored_worlds(self) -> list[str]:
        return [w for w in self.worlds if any(s.world == w and not s.reason for s in self.scenarios.values())]

    def covers(self, row: Played) -> list[str]:
        """The scored worlds where the row has every scored scenario."""
        return [
            w
            for w in self.scored_worlds()
            if all(n in row.scores for n, s in self.scenarios.items() if s.world == w and not s.reason)
        ]

    def aggregate(self, row: Played) -> Estimate:
        worlds = {w: [] for w in self.covers(row)}
        for name, s in self.scenarios.items():
            if s.world in worlds and name in row.scores:
                worlds[s.world].append((row.scores[name].value, row.parts[name]))
        return aggregate(worlds)


@dataclass
class BoardV2(WorldsBoard):
    benchmark: str
    tier: str
    seeds: list[int]
    worlds: list[str]
    scenarios: dict[str, ScenarioV2]
    rows: list[Played]


def _lifts(by_seed: dict[int, list[dict]], seeds: list[int]) -> dict[int, float]:
    """seed -> the mean lift of its valid pairs, for the seeds that have one."""
    out = {}
    for s in seeds:
        valid = [float(r["lift"]) for r in by_seed.get(s, []) if r["valid"]]
        if valid:
            out[s] = sum(valid) / len(valid)
    return out


def _complete(lifts: dict[int, float], seeds: list[int]) -> np.ndarray | None:
    """The lifts in seed order when every seed has one, else None."""
    return np.asarray([lifts[s] for s in seeds]) if len(lifts) == len(seeds) else None


def folder_headroom(cells: dict[tuple, dict[int, list[dict]]], name: str, seeds: list[int]) -> Headroom | str:
    ref = [by_seed for key, by_seed in cells.items() if key[0] == name and key[1] == "reference"]
    found = _lifts(ref[0] if ref else {}, seeds)
    oracle = _complete(found, seeds)
    if oracle is None:
        return f"the reference (oracle) lacks a valid pair on {len(seeds) - len(found)} of {len(seeds)} seeds"
    placebos = {}
    for p in PLACEBOS:
        by_seed = cells.get((name, p, p, ""))
        if by_seed is None:
            continue
        found = _lifts(by_seed, seeds)
        placebos[p] = _complete(found, seeds)
        if placebos[p] is None:
            return f"placebo {p} lacks a valid pair on {len(seeds) - len(found)} of {len(seeds)} seeds"
    if "rule" not in placebos:
        return "no rule placebo in this folder (not a v2 benchmark run)"
    return headroom(oracle, placebos)


def incomplete(manifest: dict[str, Any], cells: dict[tuple, dict[int, list[dict]]], seeds: list[int]) -> str | None:
    """The reason a folder's scenarios lack pairs when the run stopped early: every case of its
    manifest's roles plays every seed once, so fewer pairs than that is a run to resume."""
    expected = len(manifest["roles"]) * len(seeds)
    done = len({str(r["pair_id"]) for by_seed in cells.values() for rs in by_seed.values() for r in rs})
    if done >= expected:
        return None
    return f"incomplete: {done} of {expected} pairs; rerun the same command to resume"


def _account(row: Played, rs: list[dict]) -> None:
    row.invalid += sum(not r["valid"] for r in rs)
    row.calls += sum(int(r["requests"]) for r in rs)
    row.tokens += sum(int(r["input_tokens"]) + int(r["output_tokens"]) for r in rs)
    row.cost += sum(float(r["cost"]) for r in rs)
    row.wall += sum(float(r["wall_seconds"]) for r in rs)


def _decided(row: Played, folder: Path, info: ScenarioV2, by_seed: dict[int, list[dict]]) -> None:
    """What the treatments decided: legal or not, and the round-0 decisions by objective."""
    for seed, rs in by_seed.items():
        for r in rs:
            decided = pair_validity(folder, str(r["pair_id"]))
            row.decisions += int(decided.get("decisions", 0))
            row.policy_errors += int(decided.get("policy_errors", 0))
            group = row.first_round.setdefault((info.name.removesuffix(f"-{info.objective}"), seed), {})
            group.setdefault(info.objective, {}).update(first_decisions(folder, str(r["pair_id"])))


def build_board_v2(folders: list[Path], manifests: list[dict[str, Any]], collected: list[dict]) -> BoardV2:
    first = manifests[0]
    seeds = [int(s) for s in first["seeds"]]
    scenarios = {s["name"]: ScenarioV2(s["name"], s["world"], s["objective"]) for s in first["scenarios"]}
    for manifest, cells in zip(manifests, collected):
        short = incomplete(manifest, cells, seeds)
        for name, info in scenarios.items():
            head = folder_headroom(cells, name, seeds)
            info.heads.append(short if short and isinstance(head, str) else head)
    rows: dict[tuple[str, str], Played] = {}
    for k, cells in enumerate(collected):
        for (name, role, controller, model), by_seed in cells.items():
            if role != "entry" or name not in scenarios:
                continue
            row = rows.setdefault((controller, model), Played(controller, model, k))
            if row.folder != k:
                raise ConfigError(
                    "dir", f"{folders[k]} and {folders[row.folder]} both play {row.label}: give one folder per row"
                )
            _account(row, [r for rs in by_seed.values() for r in rs])
            _decided(row, folders[k], scenarios[name], by_seed)
            row.lifts[name] = _lifts(by_seed, seeds)
            lifts = _complete(row.lifts[name], seeds)
            head = scenarios[name].heads[k]
            if lifts is not None and not scenarios[name].reason and isinstance(head, Headroom):
                row.scores[name] = share(lifts, head)
                row.parts[name] = contributions(lifts, head, row.scores[name].value)
    worlds = list(dict.fromkeys(s.world for s in scenarios.values()))
    return BoardV2(first["benchmark"], first["tier"], seeds, worlds, scenarios, list(rows.values()))


def _num(v: float) -> str:
    return "NA" if math.isnan(v) else f"{v:.2f}".replace("-0.00", "0.00")


def _ci(e: Estimate) -> str:
    if math.isnan(e.value):
        return "NA"
    return _num(e.value) if math.isnan(e.low) else f"{_num(e.value)} [{_num(e.low)}, {_num(e.high)}]"


def _world_cell(board: BoardV2, row: Played, world: str) -> str:
    if world not in board.covers(row):
        return "NA"
    return _num(float(np.mean([e.value for n, e in row.scores.items() if board.scenarios[n].world == world])))


def tables_v2(board: BoardV2) -> dict[str, tuple[list[str], list[list[str]]]]:
    """{'ranked', 'apart', 'scenarios'}: (header, rows) as text cells."""
    head = ["controller", "model", "score [95% CI]", *board.worlds, *ACCOUNT_COLUMNS]
    scored = board.scored_worlds()
    ranked, apart = [], []
    for row in board.rows:
        covered = board.covers(row)
        (ranked if scored and len(covered) == len(scored) else apart).append((board.aggregate(row), row, covered))
    ranked.sort(key=lambda t: -t[0].value)

    def cells(est: Estimate, row: Played, covered: list[str], is_ranked: bool) -> list[str]:
        score = _ci(est) if is_ranked else f"not ranked ({len(covered)}/{len(scored)} scored worlds)"
        if not scored:
            score = "not ranked (no scenario is scored)"
        return [
            row.controller,
            row.model or "-",
            score,
            *(_world_cell(board, row, w) for w in board.worlds),
            str(row.calls),
            str(row.tokens),
            cost_cell(row.cost, row.calls, row.model),
            f"{row.wall:.1f}",
            str(row.invalid),
        ]

    order = [r for _, r, _ in ranked] + [r for _, r, _ in apart]
    shead = ["scenario", "world", "objective", "best placebo", "headroom [95% CI]", "scored", *(r.label for r in order)]
    sbody = []
    for name, s in board.scenarios.items():
        heads = [h for h in s.heads if isinstance(h, Headroom)]
        placebo = " / ".join(dict.fromkeys(h.placebo for h in heads)) or "NA"
        room = " / ".join(dict.fromkeys(_room(h.estimate) for h in heads)) or "NA"
        line = [name, s.world, s.objective, placebo, room, "yes" if not s.reason else f"NA: {s.reason}"]
        for r in order:
            if name in r.scores:
                line.append(_ci(r.scores[name]))
            elif s.reason or name not in r.lifts:
                line.append("NA")
            else:
                line.append(f"NA (invalid on {len(board.seeds) - len(r.lifts[name])}/{len(board.seeds)} seeds)")
        sbody.append(line)
    return {
        "ranked": (head, [cells(e, r, c, True) for e, r, c in ranked]),
        "apart": (head, [cells(e, r, c, False) for e, r, c in apart]),
        "scenarios": (shead, sbody),
    }


def _room(e: Estimate) -> str:
    return f"{e.value:.3g}" if math.isnan(e.low) else f"{e.value:.3g} [{e.low:.3g}, {e.high:.3g}]"


def unscored_note(board: BoardV2) -> str:
    scored = board.scored_worlds()
    left = [w for w in board.worlds if w not in scored]
    return f"Worlds with no scored scenario (not in the aggregate): {', '.join(left)}." if left else ""
