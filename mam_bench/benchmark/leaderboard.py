"""The leaderboard: benchmark folders -> one row per controller and model (the aggregate score
with its CI, one column per world, calls, tokens, cost, wall time) and a per-scenario table.

`benchmark.json` says which table rows play which role; folders of different definitions, tiers or
seeds are never put side by side. A v2 folder is scored by leaderboard_v2 (each against its own
placebos and oracle); a v1 folder (no `score` in its manifest) keeps v1's score, below.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mam_bench.benchmark.decisions import first_decisions, legal_line, pair_validity, sensitivity_line
from mam_bench.benchmark.score import (
    bootstrap_aggregate,
    bootstrap_mean,
    scenario_floor,
    stable_seed,
    steering_score,
)
from mam_bench.errors import ConfigError
from mam_bench.pricing import ACCOUNT_COLUMNS, cost_cell

MANIFEST = "benchmark.json"
MANIFEST_KEYS = ("benchmark", "definition_hash", "tier", "seeds", "entry", "scenarios", "roles")


@dataclass
class Row:
    """One controller and model: its per-seed scores per scenario and what they cost."""

    controller: str
    model: str
    scores: dict[str, dict[int, float]] = field(default_factory=dict)
    invalid: int = 0
    calls: int = 0
    tokens: int = 0
    cost: float = 0.0
    wall: float = 0.0
    #: decisions of its treatments, and those that became a policy_error (no legal action parsed)
    decisions: int = 0
    policy_errors: int = 0
    #: (scenario without its objective, seed) -> objective -> actor -> its round-0 decision
    first_round: dict[tuple[str, int], dict[str, dict[int, str]]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.controller} {self.model}".strip()

    @property
    def resample_key(self) -> str:
        """What seeds the bootstrap: the label, with a replay counted as what it replays, so a
        replay's intervals equal the recorded row's and not only its means."""
        return f"{self.controller.removesuffix(' (replay)')} {self.model}".strip()


@dataclass
class ScenarioInfo:
    name: str
    world: str
    objective: str
    gaps: list[float] = field(default_factory=list)
    floor: float = math.nan


@dataclass
class Board:
    benchmark: str
    tier: str
    worlds: list[str]
    scenarios: dict[str, ScenarioInfo]
    rows: list[Row]


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    if not path.is_file():
        raise ConfigError("dir", f"{folder} has no {MANIFEST} (not a folder from mam-bench benchmark)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        raise ConfigError("dir", f"{path} is damaged (not JSON)") from None
    missing = [k for k in MANIFEST_KEYS if not isinstance(manifest, dict) or k not in manifest]
    if missing:
        raise ConfigError("dir", f"{path} is damaged (no {missing[0]!r})")
    return manifest_in_todays_names(manifest)


def manifest_in_todays_names(manifest: dict[str, Any]) -> dict[str, Any]:
    """A benchmark.json with its entry's controller under today's name: folders recorded before
    the rename say `policy` (a new dict; the rest as recorded)."""
    entry = manifest.get("entry")
    if not isinstance(entry, dict) or "policy" not in entry or "controller" in entry:
        return manifest
    return {**manifest, "entry": {("controller" if k == "policy" else k): v for k, v in entry.items()}}


def entry_pairs(folder: Path, manifest: dict[str, Any]) -> dict[tuple[str, str, int], str]:
    """(scenario, model, seed) -> pair id of each finished pair of the controller under test."""
    from mam_bench.experiment.table import read_table

    pairs: dict[tuple[str, str, int], str] = {}
    for r in read_table(folder / "table.csv").to_dict("records"):
        for item in manifest["roles"].get(r["case_key"], []):
            if item["role"] == "entry":
                pairs[(item["scenario"], item["model"], int(r["seed"]))] = str(r["pair_id"])
    return pairs


def _collect(folder: Path, manifest: dict[str, Any]) -> tuple[dict[tuple, dict[int, list[dict]]], dict[str, Any]]:
    """(scenario, role, controller, model) -> seed -> table rows, from the folder's table.csv."""
    from mam_bench.experiment.table import read_table

    table = folder / "table.csv"
    if not table.is_file():
        raise ConfigError("dir", f"{folder} has no table.csv (the benchmark has not finished a pair)")
    df = read_table(table)
    cells: dict[tuple, dict[int, list[dict]]] = {}
    for r in df.to_dict("records"):
        for item in manifest["roles"].get(r["case_key"], []):
            key = (item["scenario"], item["role"], item["controller"], item["model"])
            cells.setdefault(key, {}).setdefault(int(r["seed"]), []).append(r)
    return cells, manifest


def _mean(rows: list[dict], column: str) -> float:
    return sum(float(r[column]) for r in rows) / len(rows)


#: what two folders must share to be compared: manifest key -> the field an error names
COMPARABLE = {
    "benchmark": "definition",
    "definition_hash": "definition",
    "tier": "tier",
    "seeds": "seeds",
    "ceiling_hash": "ceiling",  # v3: scored against the same shipped ceiling (absent before v3)
}


def check_comparable(folders: list[Path], manifests: list[dict[str, Any]]) -> None:
    first = manifests[0]
    for f, m in zip(folders[1:], manifests[1:]):
        for key, name in COMPARABLE.items():
            if m.get(key) != first.get(key):
                raise ConfigError(
                    name,
                    f"{f} played {key} {m.get(key)!r}, {folders[0]} played {first.get(key)!r}; a leaderboard "
                    f"compares folders of the same definition, tier and seeds",
                )


def score_version(manifest: dict[str, Any]) -> str:
    return str(manifest.get("score", "v1"))


def build_board(folders: list[Path]) -> Any:
    """The board of these folders: a v1 Board, or a leaderboard_v2.BoardV2 for v2 folders."""
    manifests = [read_manifest(f) for f in folders]
    check_comparable(folders, manifests)
    first = manifests[0]
    if score_version(first) == "v3":
        from mam_bench.benchmark.leaderboard_v3 import build_board_v3

        return build_board_v3(folders, manifests, [_collect(f, m)[0] for f, m in zip(folders, manifests)])
    if score_version(first) == "v2":
        from mam_bench.benchmark.leaderboard_v2 import build_board_v2

        return build_board_v2(folders, manifests, [_collect(f, m)[0] for f, m in zip(folders, manifests)])
    scenarios = {s["name"]: ScenarioInfo(s["name"], s["world"], s["objective"]) for s in first["scenarios"]}
    worlds = list(dict.fromkeys(s.world for s in scenarios.values()))
    collected = [_collect(folder, manifest)[0] for folder, manifest in zip(folders, manifests)]
    rows: dict[tuple[str, str], Row] = {}
    for name, info in scenarios.items():
        # the controller-free rows of every seed, from the first folder that has them: every
        # controller of every folder is scored against the same baselines, reference and floor
        base: dict[str, dict[int, list[dict]]] = {"stay": {}, "mimic": {}}
        ref: dict[int, list[dict]] = {}
        for cells in collected:
            for role in base:
                for s, rs in cells.get((name, role, role, ""), {}).items():
                    base[role].setdefault(s, rs)
            for key, by_seed in cells.items():
                if key[0] == name and key[1] == "reference":
                    for s, rs in by_seed.items():
                        ref.setdefault(s, rs)
        seeds = sorted(s for s in ref if s in base["stay"] or s in base["mimic"])
        outcomes = []
        for s in seeds:
            vals = [_mean(ref[s], "reference_compared"), _mean(ref[s], "treatment_final")]
            vals += [_mean(base[b][s], "treatment_final") for b in ("stay", "mimic") if s in base[b]]
            outcomes.append(vals)
        info.floor = scenario_floor(outcomes) if outcomes else math.nan
        baseline = {s: [_mean(base[k][s], "lift") if s in base[k] else None for k in ("stay", "mimic")] for s in seeds}
        info.gaps = [_mean(ref[s], "lift") - max(x for x in baseline[s] if x is not None) for s in seeds]
        for folder, cells in zip(folders, collected):
            for (scen, role, controller, model), by_seed in cells.items():
                if scen != name or role != "entry":
                    continue
                row = rows.setdefault((controller, model), Row(controller, model))
                mine = row.scores.setdefault(name, {})
                for s, rs in by_seed.items():
                    valid = [r for r in rs if r["valid"]]
                    row.invalid += len(rs) - len(valid)
                    row.calls += sum(int(r["requests"]) for r in rs)
                    row.tokens += sum(int(r["input_tokens"]) + int(r["output_tokens"]) for r in rs)
                    row.cost += sum(float(r["cost"]) for r in rs)
                    row.wall += sum(float(r["wall_seconds"]) for r in rs)
                    for r in rs:
                        decided = pair_validity(folder, str(r["pair_id"]))
                        row.decisions += int(decided.get("decisions", 0))
                        row.policy_errors += int(decided.get("policy_errors", 0))
                        group = row.first_round.setdefault((name.removesuffix(f"-{info.objective}"), s), {})
                        group.setdefault(info.objective, {}).update(first_decisions(folder, str(r["pair_id"])))
                    if not valid or s not in baseline or s in mine:
                        continue
                    stay, mimic = baseline[s]
                    mine[s] = steering_score(_mean(valid, "lift"), stay, mimic, _mean(ref[s], "lift"), info.floor)
    return Board(first["benchmark"], first["tier"], worlds, scenarios, list(rows.values()))


def _groups(board: Board, row: Row) -> dict[str, dict[str, list[float]]]:
    out: dict[str, dict[str, list[float]]] = {w: {} for w in board.worlds}
    for name, info in board.scenarios.items():
        out[info.world][name] = [row.scores.get(name, {})[s] for s in sorted(row.scores.get(name, {}))]
    return out


def _num(v: float) -> str:
    """Two decimals; a value that rounds to zero is 0.00, never -0.00."""
    return "NA" if math.isnan(v) else f"{v:.2f}".replace("-0.00", "0.00")


def _ci(mean: float, low: float, high: float) -> str:
    if math.isnan(mean):
        return "NA"
    return _num(mean) if math.isnan(low) else f"{_num(mean)} [{_num(low)}, {_num(high)}]"


def _coverage(board: Board, groups: dict[str, dict[str, list[float]]]) -> str:
    """A row that lacks a world (no valid pair there) says so: its aggregate is over fewer worlds."""
    have = sum(any(v for v in groups[w].values()) for w in board.worlds)
    return "" if have == len(board.worlds) else f" ({have}/{len(board.worlds)} worlds)"


def tables(board: Board) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    """(leaderboard header, rows, per-scenario header, rows), as text cells."""
    head = ["controller", "model", "score [95% CI]", *board.worlds, *ACCOUNT_COLUMNS]
    body = []
    ranked = []
    for row in board.rows:
        groups = _groups(board, row)
        agg = bootstrap_aggregate(groups, stable_seed(f"aggregate|{row.resample_key}"))
        ranked.append((agg[0], row, groups, agg))
    ranked.sort(key=lambda t: -t[0] if not math.isnan(t[0]) else math.inf)
    for _, row, groups, agg in ranked:
        per_world = []
        for w in board.worlds:
            means = [sum(v) / len(v) for v in groups[w].values() if v]
            per_world.append(_num(sum(means) / len(means)) if means else "NA")
        body.append(
            [
                row.controller,
                row.model or "-",
                _ci(*agg) + _coverage(board, groups),
                *per_world,
                str(row.calls),
                str(row.tokens),
                cost_cell(row.cost, row.calls, row.model),
                f"{row.wall:.1f}",
                str(row.invalid),
            ]
        )
    labels = [r.label for _, r, _, _ in ranked]
    shead = ["scenario", "world", "objective", "reference gap", "floor", "reference > baselines", *labels]
    sbody = []
    for name, info in board.scenarios.items():
        gaps = info.gaps
        beats = sum(g > info.floor for g in gaps)
        cells = [
            name,
            info.world,
            info.objective,
            f"{sum(gaps) / len(gaps):.3g}" if gaps else "NA",
            f"{info.floor:.3g}" if not math.isnan(info.floor) else "NA",
            f"{beats}/{len(gaps)}",
        ]
        for _, row, _, _ in ranked:
            v = [row.scores.get(name, {})[s] for s in sorted(row.scores.get(name, {}))]
            cells.append(_ci(*bootstrap_mean(v, stable_seed(f"{name}|{row.resample_key}"))) + f" (n={len(v)})")
        sbody.append(cells)
    return head, body, shead, sbody


def _markdown_table(head: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in body]
    return "\n".join(lines) + "\n"


DEFINITION = (
    "Score per scenario and seed: 0 = the better of stay and mimic on that seed, 1 = the reference "
    "strategy on that seed; (lift - baseline) / max(reference gap, floor), clipped to [-1, 1]. Per "
    "scenario: mean over seeds, 95% percentile bootstrap CI (seeded); a world's column: the mean of its "
    "scenarios; the aggregate: the mean over worlds, its CI resampling every scenario's seeds."
)


#: a page's parts in order: a table (heading or "", header, rows, html id) or a paragraph (text)
Block = tuple[str, list[str], list[list[str]], str] | str


def blocks(board: Any) -> tuple[str, list[Block]]:
    """(title, blocks) of either version's board."""
    from mam_bench.benchmark.leaderboard_v2 import DEFINITION_V2, BoardV2, tables_v2, unscored_note
    from mam_bench.benchmark.leaderboard_v3 import DEFINITION_V3, BoardV3, notes_v3, tables_v3

    if isinstance(board, BoardV3):
        t3 = tables_v3(board)
        said = [line for line in (legal_line(board.rows), sensitivity_line(board.rows)) if line]
        parts3: list[Block] = [
            ("", *t3["ranked"], "leaderboard"),
            DEFINITION_V3,
            *notes_v3(board),
            *said,
            ("Per scenario", *t3["scenarios"], "scenarios"),
        ]
        return f"{board.benchmark}, tier {board.tier}", parts3
    if isinstance(board, BoardV2):
        t = tables_v2(board)
        apart = [("Not ranked: no score in some scored scenario", *t["apart"], "apart")] if t["apart"][1] else []
        note = [unscored_note(board)] if unscored_note(board) else []
        said = [line for line in (legal_line(board.rows), sensitivity_line(board.rows)) if line]
        parts = [
            ("", *t["ranked"], "leaderboard"),
            *apart,
            DEFINITION_V2,
            *note,
            *said,
            ("Per scenario", *t["scenarios"], "scenarios"),
        ]
        return f"{board.benchmark}, tier {board.tier}", parts
    head, body, shead, sbody = tables(board)
    lines = [line for line in (legal_line(board.rows), sensitivity_line(board.rows)) if line]
    return f"{board.benchmark}, tier {board.tier}", [
        ("", head, body, "leaderboard"),
        DEFINITION,
        *lines,
        ("Per scenario", shead, sbody, "scenarios"),
    ]


def leaderboard_markdown(board: Any) -> str:
    title, parts = blocks(board)
    out = [f"## Leaderboard: {title}\n\n"]
    for b in parts:
        if isinstance(b, str):
            out.append(f"{b}\n\n")
        else:
            heading, head, body, _ = b
            out.append((f"### {heading}\n\n" if heading else "") + _markdown_table(head, body) + "\n")
    return "".join(out).removesuffix("\n")


def _html_table(head: list[str], body: list[list[str]], table_id: str) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    b = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body)
    return f'<table id="{table_id}"><thead><tr>{h}</tr></thead><tbody>{b}</tbody></table>'


def leaderboard_html(board: Any, style: str) -> str:
    name, parts = blocks(board)
    title = html.escape(f"MAM-Bench leaderboard: {name}")
    body = []
    for b in parts:
        if isinstance(b, str):
            body.append(f"<p>{html.escape(b)}</p>")
        else:
            heading, head, rows, table_id = b
            body.append((f"<h2>{html.escape(heading)}</h2>" if heading else "") + _html_table(head, rows, table_id))
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title><style>{style}</style></head>"
        f"<body><h1>{title}</h1>{''.join(body)}</body></html>"
    )
