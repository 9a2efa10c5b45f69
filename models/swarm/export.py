"""Our swarm runs in SwarmBench's log format, so its own analysis scripts read them.

Upstream writes, per log folder, `meta_log.json` (game key -> model, task, num_agents, max_round,
width, height, seed, view_size), and per game `game_log_<key>.json` (one state per round from 0:
task, round, grid rows, agents [{id, x, y}], score, the previous round's messages [{round,
agent_name, message}]) and `agent_log_<key>.json` (one row per agent decision: task, round,
agent_id, view, prompt, response, action, message, api_call_time, action_success,
total_llm_tokens). Agents are named `Agent_<id>`, x is the column and y the row. A grid shows
agents as `A`, or `a` in the alternate state (light off, not carrying), as upstream's grid does.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.experiment.table import read_checked_table
from mam_bench.models.swarm.grid import SYMBOL
from mam_bench.models.swarm.params import TASKS
from mam_bench.record_schema import controller_name, read_record
from mam_bench.records import load_record, read_rounds, reading, write_whole, writing

#: our task names -> upstream's
TASK_NAMES = {
    "pursuit": "Pursuit",
    "synchronization": "Synchronization",
    "foraging": "Foraging",
    "flocking": "Flocking",
    "transport": "Transport",
}


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError("run", f"{path} is damaged ({type(exc).__name__})") from None


def run_dirs(run: Path) -> list[Path]:
    """The run directories to export: RUN itself, or every valid case pair of an experiment folder."""
    if (run / "table.csv").is_file():
        read_checked_table(run / "table.csv", "run")
        with (run / "table.csv").open(encoding="utf-8", newline="") as fh:
            dirs = [run / "pairs" / str(r["pair_id"]) for r in csv.DictReader(fh) if r.get("role") == "case"]
    else:
        dirs = [run]
    for d in dirs:
        if not (d / "result.json").is_file() or not (d / "treatment.jsonl").is_file():
            raise ConfigError("run", f"{d} is not a finished run (no result.json or treatment.jsonl)")
        world = read_record(load_record(d / "result.json", "run"), "result.json").get("world")
        if world not in TASKS:
            raise ConfigError("run", f"{d} is a {world} run; the swarmbench format holds the swarm tasks only")
    return dirs


def terrain_of(result: dict[str, Any]) -> list[list[str]]:
    """The static terrain symbols of the run's layout (walls, food, nest), rebuilt from its seed."""
    from mam_bench.registry import get_world

    cls = get_world(result["world"])
    world = cls(cls.Params(**result["params"]), seed=int(result["seed"]))
    return [[SYMBOL[int(v)] for v in row] for row in world.terrain.tolist()]


def grid_of(terrain: list[list[str]], record: dict[str, Any]) -> list[list[str]]:
    """The round's full grid; box cells pushed off the map (Transport) are gone, as upstream removes them."""
    grid = [row[:] for row in terrain]
    size = len(grid)
    for r, c in record.get("box") or []:
        if 0 <= r < size and 0 <= c < size:
            grid[r][c] = "B"
    for key, symbol in (record.get("marks") or {}).items():
        r, c = (int(x) for x in key.split(","))
        if 0 <= r < size and 0 <= c < size:
            grid[r][c] = symbol
    alt = record.get("alt_state") or []
    for i, p in enumerate(record["positions"]):
        if p is not None:
            grid[p[0]][p[1]] = "a" if i < len(alt) and alt[i] else "A"
    return grid


def view_of(grid: list[list[str]], record: dict[str, Any], aid: int, k: int) -> list[list[str]] | None:
    """The k x k view upstream logs: agents by id (`$id` in the alternate state), `*` off the map."""
    pos = record["positions"][aid]
    if pos is None:
        return None
    ids = {tuple(p): i for i, p in enumerate(record["positions"]) if p is not None}
    alt = record.get("alt_state") or []
    half, size = k // 2, len(grid)
    out = []
    for r in range(pos[0] - half, pos[0] + half + 1):
        row = []
        for c in range(pos[1] - half, pos[1] + half + 1):
            if not (0 <= r < size and 0 <= c < size):
                row.append("*")
            elif (r, c) in ids:
                j = ids[(r, c)]
                row.append(f"${j}" if j < len(alt) and alt[j] else str(j))
            else:
                row.append(grid[r][c])
        out.append(row)
    return out


def game_logs(d: Path, keep_prompts: bool) -> tuple[str, dict[str, Any], list[dict], list[dict]]:
    """(key, meta, game_log, agent_log) of one run directory."""
    result = read_record(load_record(d / "result.json", "run"), "result.json")
    with reading(d, "run"):  # a record missing a field names its run folder
        return _game_logs(d, result, keep_prompts)


def _game_logs(
    d: Path, result: dict[str, Any], keep_prompts: bool
) -> tuple[str, dict[str, Any], list[dict], list[dict]]:
    params, task = result["params"], TASK_NAMES[result["world"]]
    records = read_rounds(d, "treatment.jsonl")
    decisions = {(r["round"], r["actor_id"]): r for r in _jsonl(d / "decisions.jsonl")}
    calls: dict[tuple[int, int], dict[str, Any]] = {}
    for c in _jsonl(d / "llm_calls.jsonl"):
        if c.get("phase") == "decision":
            calls[(c["round"], c["actor_id"])] = c  # the last attempt is the answer that counted
    prompts = rebuilt_prompts(d, result) if keep_prompts else {}
    controller = result.get("controller") or {}
    model = controller.get("model") or controller_name(result)
    key = f"{result['seed']}-{d.name}"
    meta = {
        "model": model,
        "task": task,
        "num_agents": params["agents"],
        "max_round": params["rounds"],
        "width": params["size"],
        "height": params["size"],
        "seed": result["seed"],
        "view_size": params["view"],
    }
    terrain = terrain_of(result)
    game, agents, tokens = [], [], dict.fromkeys(result["influence_ids"], 0)
    for n, rec in enumerate(records):
        grid = grid_of(terrain, rec)
        sent = rec.get("messages") or []  # sent in the round that led here (upstream: round n - 1)
        game.append(
            {
                "timestamp": float(n),
                "task": task,
                "round": rec["round"],
                "grid": grid,
                "agents": [
                    {"id": f"Agent_{i}", "x": p[1], "y": p[0]} for i, p in enumerate(rec["positions"]) if p is not None
                ],
                "score": rec["metrics"]["score"],
                "messages": [
                    {"round": rec["round"] - 1, "agent_name": f"Agent_{i}", "message": m}
                    for i, m in enumerate(sent or [])
                    if m
                ],
            }
        )
        if n == 0:
            continue
        start, start_grid = records[n - 1], game[n - 1]["grid"]
        for aid in result["influence_ids"]:
            dec = decisions.get((start["round"], aid))
            if dec is None:
                continue
            call = calls.get((start["round"], aid), {})
            tokens[aid] += int(call.get("input_tokens", 0)) + int(call.get("output_tokens", 0))
            prompt = prompts.get((start["round"], aid))
            if prompt is None:
                prompt = f"sha256:{call['prompt_hash']}" if call.get("prompt_hash") else ""
            agents.append(
                {
                    "timestamp": float(n) - 0.5,
                    "task": task,
                    "round": start["round"],
                    "agent_id": f"Agent_{aid}",
                    "view": view_of(start_grid, start, aid, params["view"]),
                    "prompt": prompt,
                    "response": dec.get("raw") or "",
                    "action": (dec.get("action") or {}).get("action", "STAY"),
                    "message": dec.get("message") or "",
                    "api_call_time": float(call.get("latency_s", 0.0) or 0.0),
                    "action_success": dec.get("outcome") == "accepted",
                    "total_llm_tokens": tokens[aid],
                }
            )
    return key, meta, game, agents


def rebuilt_prompts(d: Path, result: dict[str, Any]) -> dict[tuple[int, int], str]:
    """(round, actor) -> the full prompt; filled by `prompt_replay` (see there)."""
    from mam_bench.models.swarm.prompt_replay import replay_prompts

    return replay_prompts(d, result)


def export_swarmbench(run: Path, out: Path, keep_prompts: bool = False) -> str:
    """Write the logs of every run under `run` into `out`; returns a one-line summary."""
    dirs = run_dirs(run)  # every input checked before the first file is written
    logs = [game_logs(d, keep_prompts) for d in dirs]
    with writing(out):
        out.mkdir(parents=True, exist_ok=True)
    meta = {}
    for key, m, game, agents in logs:
        meta[key] = m
        write_whole(out / f"game_log_{key}.json", json.dumps(game, indent=2))
        write_whole(out / f"agent_log_{key}.json", json.dumps(agents, indent=2))
    write_whole(out / "meta_log.json", json.dumps(meta))  # last: its presence says the export is whole
    return f"{len(logs)} games -> {out}/meta_log.json, game_log_*.json, agent_log_*.json"
