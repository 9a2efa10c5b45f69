"""What a model row's recorded decisions say beside its score: how many were legal actions, and
whether the model chose differently when only the objective changed."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.record_schema import read_record


def pair_validity(folder: Path, pair_id: str) -> dict[str, Any]:
    """A finished pair's validity block (its decisions and policy errors), from its result.json."""
    path = folder / "pairs" / pair_id / "result.json"
    try:
        return read_record(json.loads(path.read_text(encoding="utf-8")), path.name).get("validity") or {}
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        raise ConfigError("dir", f"{path} is damaged (not a result)") from None


def first_decisions(folder: Path, pair_id: str) -> dict[int, str]:
    """actor -> what it chose in round 0 (JSON text), policy errors left out: round 0 is the only
    round whose state is the same under every objective of a scenario on a seed."""
    path = folder / "pairs" / pair_id / "decisions.jsonl"
    out: dict[int, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return out
    for line in lines:
        try:
            d = json.loads(line)
        except ValueError:
            raise ConfigError("dir", f"{path} is damaged (not JSON lines)") from None
        if d.get("round") == 0 and not d.get("error") and d.get("outcome") != "policy_error":
            out[int(d["actor_id"])] = json.dumps(d.get("decision"), sort_keys=True)
    return out


def legal_line(rows: list[Any]) -> str:
    """How many of each model row's decisions were legal actions (the rest became policy_error, the
    world's null action): under constrained decoding a format failure should be near 0."""
    parts = [
        f"{row.label} {row.decisions - row.policy_errors} of {row.decisions} "
        f"({(row.decisions - row.policy_errors) / row.decisions:.1%})"
        for row in rows
        if row.calls and row.decisions
    ]
    return "Legal decisions (an answer that parsed to a legal action): " + "; ".join(parts) + "." if parts else ""


def sensitivity_line(rows: list[Any]) -> str:
    """Per model row: of the round-0 decisions made by the same agent on the same seed and start under
    two objectives of one scenario, how many differ. A model that ignores its objective differs in none."""
    parts = []
    for row in rows:
        same = differ = 0
        for by_objective in row.first_round.values():
            for a, b in itertools.combinations(sorted(by_objective), 2):
                for actor in by_objective[a].keys() & by_objective[b].keys():
                    if by_objective[a][actor] == by_objective[b][actor]:
                        same += 1
                    else:
                        differ += 1
        if row.calls and same + differ:
            parts.append(f"{row.label} {differ} of {same + differ}")
    if not parts:
        return ""
    return (
        "Objective sensitivity (round-0 decisions of the same agent on the same seed under two objectives "
        "of a scenario that differ): " + "; ".join(parts) + "."
    )
