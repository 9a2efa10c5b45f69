"""The games of an experiment folder, read back from each pair's per-round records.

A game is one pair's treatment run (the run the controller under study played); its score is the
all-agents `score`, the paper's, since in the SwarmBench protocol every agent is an influence agent.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.models.swarm.params import TASKS
from mam_bench.record_schema import read_record
from mam_bench.records import load_record, read_rounds, reading


@dataclass(frozen=True)
class Game:
    pair_id: str
    case: str
    task: str
    seed: int
    params: dict[str, Any]
    influence_ids: tuple[int, ...]
    rounds: tuple[dict[str, Any], ...]  # the treatment.jsonl records, round 0 (start) first

    @property
    def score(self) -> float:
        return float(self.rounds[-1]["metrics"]["score"])


def distinct(games: list[Game]) -> list[Game]:
    """Games with the same trajectory once: two cases that play out identically (a noise setting
    that no controller reads) are one observation, not two, for a correlation."""
    seen, out = set(), []
    for g in games:
        key = (g.task, repr([(r["positions"], r.get("actions"), r.get("messages")) for r in g.rounds]))
        if key not in seen:
            seen.add(key)
            out.append(g)
    return out


def load_games(folder: Path) -> list[Game]:
    """Every valid case pair of a swarm world in `folder` (baseline pairs are left out)."""
    table = folder / "table.csv"
    if not table.is_file():
        raise ConfigError("dir", f"{folder} has no table.csv (run mam-bench experiment first)")
    games = []
    with table.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row.get("role") != "case" or row.get("valid") != "True" or row.get("world") not in TASKS:
                continue
            where = folder / "pairs" / str(row.get("pair_id"))
            with reading(where / "treatment.jsonl"):
                rounds = read_rounds(where, "treatment.jsonl")
            if len(rounds) < 2:
                continue
            result = read_record(load_record(where / "result.json"), "result.json")
            with reading(where / "result.json"):
                game = Game(
                    row["pair_id"],
                    row["case"],
                    row["world"],
                    int(row["seed"]),
                    dict(result["params"]),
                    tuple(result.get("influence_ids") or ()),
                    tuple(rounds),
                )
            games.append(game)
    return games
