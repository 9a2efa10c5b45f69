"""AgentWorld's main table (its Table 2) in our form, from an experiment folder: SR, PSR, CCE,
rounds and chats per model and condition, each a mean over the folder's crafting pairs with a
95% bootstrap CI, the all-rule reference runs of the same pairs as their own row.

`mam-bench report DIR --agentworld` (the `agentworld` analysis the crafting world registers).
SR and PSR are percentages as in the paper; CCE is the provenance CCE (a failed run counts 0, as
the paper averages failures in), or the judged one where the pairs ran with `cce_mode=llm`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from mam_bench.errors import ConfigError
from mam_bench.record_schema import controller_name, read_record
from mam_bench.records import load_record, reading

#: (column, final metric (None: the run's rounds), scale, digits)
COLUMNS = (
    ("SR", "sr", 100.0, 1),
    ("PSR", "psr", 100.0, 1),
    ("CCE", "cce", 1.0, 3),
    ("rounds", None, 1.0, 1),
    ("chats", "chats", 1.0, 1),
)


def _runs(folder: Path) -> list[dict[str, Any]]:
    """One entry per (pair, run): who played (model or `rule`), the condition, the final figures."""
    out = []
    references = set()  # a seed's reference is played once per pair; it counts once
    for result_file in sorted((folder / "pairs").glob("*/result.json")):
        result = read_record(load_record(result_file), result_file.name)
        with reading(result_file):
            out += _entries(result, result_file.parent.name, references)
    return out


def _entries(result: dict[str, Any], pair: str, references: set[str]) -> list[dict[str, Any]]:
    """The reference (once per seed and setting) and the treatment of one valid crafting pair."""
    out: list[dict[str, Any]] = []
    if result.get("world") != "crafting" or result.get("validity", {}).get("status", "valid") != "valid":
        return out
    params = result.get("params", {})
    condition = params.get("condition", "standard")
    controller = result.get("controller") or {}
    model = controller.get("model") or controller_name(result) or "?"
    judged = result.get("judged") or {}
    reference_key = json.dumps([result["seed"], params], sort_keys=True)
    for run, who in (("reference", "all-rule (reference)"), ("treatment", str(model))):
        if run == "reference":
            if reference_key in references:
                continue
            references.add(reference_key)
        final = dict(result[run]["final"])
        final["rounds"] = result[run]["rounds"]
        if run in judged and "cce_llm" in judged[run]:
            final["cce"] = judged[run]["cce_llm"]
        out.append({"who": who, "condition": condition, "final": final, "pair": pair})
    return out


def _cell(values: list[float], scale: float, digits: int, seed: int) -> str:
    from mam_bench.experiment.stats import bootstrap_ci

    arr = np.asarray(values, dtype=float) * scale
    lo, hi = bootstrap_ci(arr, seed=seed)
    ci = "" if math.isnan(lo) else f" [{lo:.{digits}f}, {hi:.{digits}f}]"
    return f"{arr.mean():.{digits}f}{ci}"


def agentworld_table(folder: Path) -> str:
    runs = _runs(Path(folder))
    if not runs:
        raise ConfigError("dir", f"{folder} holds no finished crafting pairs (pairs/*/result.json)")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in runs:
        groups.setdefault((r["who"], r["condition"]), []).append(r)
    lines = [
        "AgentWorld Table 2 in our form: mean [95% bootstrap CI] over pairs; SR and PSR in %",
        "",
        "| model | condition | n | " + " | ".join(c[0] for c in COLUMNS) + " |",
        "|---|---|---|" + "---|" * len(COLUMNS),
    ]
    reference_first = sorted(groups, key=lambda k: (not k[0].startswith("all-rule"), k[0], k[1]))
    for who, condition in reference_first:
        rows = groups[(who, condition)]
        cells = [
            _cell([r["final"][key or name] for r in rows], scale, digits, seed=i)
            for i, (name, key, scale, digits) in enumerate(COLUMNS)
        ]
        lines.append(f"| {who} | {condition} | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
