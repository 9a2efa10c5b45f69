"""`mam-bench export RUN --format swarmbench` writes logs SwarmBench's own reader can read.

`read_upstream` follows the logic of upstream's log readers (analysis/score_agg.py and
analysis/plot_metrics.py): meta_log.json maps a game key to its meta (the model, the task); the
game's files are game_log_<key>.json and agent_log_<key>.json; the final score is the last game
state's `score`; positions are each state's agents' (x, y); actions and messages come from the
agent log's rows by `round` and `agent_id`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.records import read_rounds


def read_upstream(log_dir: Path) -> dict[str, dict]:
    meta = json.loads((log_dir / "meta_log.json").read_text(encoding="utf-8"))
    games = {}
    for key, info in meta.items():
        game_path, agent_path = log_dir / f"game_log_{key}.json", log_dir / f"agent_log_{key}.json"
        if not info.get("model") or not game_path.exists() or not agent_path.exists():
            continue
        steps = json.loads(game_path.read_text(encoding="utf-8"))
        rows = json.loads(agent_path.read_text(encoding="utf-8"))
        actions = defaultdict(dict)
        messages = defaultdict(list)
        for entry in rows:
            r = int(entry["round"])
            actions[r][entry["agent_id"]] = str(entry["action"])
            text = str(entry.get("message", "")).strip()
            if text:
                messages[r].append(text)
        positions = {int(s["round"]): {a["id"]: (a["x"], a["y"]) for a in s["agents"]} for s in steps}
        games[key] = {
            "meta": info,
            "final_score": float(steps[-1].get("score")),
            "positions": positions,
            "actions": dict(actions),
            "messages": dict(messages),
            "grids": [s["grid"] for s in steps],
            "views": {(int(e["round"]), e["agent_id"]): e["view"] for e in rows},
            "prompts": [e["prompt"] for e in rows],
        }
    return games


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "sync"
    args = ["run", "synchronization", "--seed", "3", "--policy", "heuristic", "--out", str(out)]
    assert main(args + ["--param", "rounds=12", "--param", "board=off", "--influence", "10"]) == 0
    return out


def test_export_reads_back_with_upstreams_field_names(run_dir, tmp_path):
    out = tmp_path / "logs"
    assert main(["export", str(run_dir), "--format", "swarmbench", "--out", str(out)]) == 0
    games = read_upstream(out)
    assert len(games) == 1
    game = next(iter(games.values()))
    result = json.loads((run_dir / "result.json").read_text())
    records = read_rounds(run_dir, "treatment.jsonl")
    decisions = [json.loads(line) for line in (run_dir / "decisions.jsonl").read_text().splitlines()]
    assert game["meta"]["task"] == "Synchronization" and game["meta"]["num_agents"] == 10
    assert game["meta"]["model"] == "heuristic"
    assert game["meta"]["seed"] == 3 and game["meta"]["view_size"] == 5
    assert game["final_score"] == records[-1]["metrics"]["score"] == result["treatment"]["final"]["score"]
    for rec in records:
        want = {f"Agent_{i}": (p[1], p[0]) for i, p in enumerate(rec["positions"]) if p is not None}
        assert game["positions"][rec["round"]] == want
        lit = sum(row.count("A") for row in game["grids"][rec["round"]])
        dark = sum(row.count("a") for row in game["grids"][rec["round"]])
        assert (lit, dark) == (rec["alt_state"].count(False), rec["alt_state"].count(True))
    for d in decisions:
        assert game["actions"][d["round"]][f"Agent_{d['actor_id']}"] == d["action"]["action"]
    # the logged view is centred on the agent, who appears by its id
    start = records[0]["positions"][4]
    view = game["views"][(0, "Agent_4")]
    assert len(view) == 5 and view[2][2] in ("4", "$4") and start is not None
    assert all(p == "" for p in game["prompts"])  # a heuristic run has no prompt


def test_export_refuses_a_folder_that_holds_files(run_dir, tmp_path, capsys):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main(["export", str(run_dir), "--format", "swarmbench", "--out", str(out)]) == 2
    assert "error: out:" in capsys.readouterr().err and (out / "keep.txt").read_text() == "mine"


def test_unknown_format_is_a_named_error(run_dir, tmp_path, capsys):
    assert main(["export", str(run_dir), "--format", "nope", "--out", str(tmp_path / "x")]) == 2
    assert "error: format:" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_keep_prompts_stores_the_prompts_the_model_was_sent(tmp_path):
    from mam_bench.models.swarm.prompts import OBJECTIVES, REPRODUCTION_SYSTEM
    from tests.support.openai_server import OpenAIServer

    run = tmp_path / "llm"
    with OpenAIServer(reply=lambda body: "I go.\nACTION: RIGHT\nMSG: going right") as srv:
        args = ["run", "pursuit", "--seed", "1", "--policy", "llm", "--model", "openai:scripted"]
        args += ["--base-url", srv.base_url, "--out", str(run), "--influence", "10"]
        assert main(args + ["--param", "rounds=3", "--param", "board=off", "--objective", "hinder"]) == 0
        sent = [{m["role"]: m["content"] for m in body["messages"]} for body in srv.bodies]
    out = tmp_path / "logs"
    assert main(["export", str(run), "--format", "swarmbench", "--out", str(out), "--keep-prompts"]) == 0
    rows = json.loads(next(out.glob("agent_log_*.json")).read_text())
    game = json.loads(next(out.glob("game_log_*.json")).read_text())
    meta = json.loads((out / "meta_log.json").read_text())
    assert [m["model"] for m in meta.values()] == ["openai:scripted"]
    assert game[0]["messages"] == []  # upstream: state n carries the messages of round n - 1
    assert [m["round"] for m in game[1]["messages"]] == [0] * 10
    assert {m["message"] for m in game[1]["messages"]} == {"going right"}
    assert len(rows) == 30 and all(r["action"] == "RIGHT" and r["message"] == "going right" for r in rows)
    assert all("ACTION: RIGHT" in r["response"] for r in rows)
    assert sorted(r["prompt"] for r in rows) == sorted(s["user"] for s in sent)
    assert {s["system"] for s in sent} == {REPRODUCTION_SYSTEM}  # reproduction mode: no objective
    assert not any(OBJECTIVES["hinder"] in s["user"] for s in sent)
    hashed = tmp_path / "hashed"
    assert main(["export", str(run), "--format", "swarmbench", "--out", str(hashed)]) == 0
    rows = json.loads(next(hashed.glob("agent_log_*.json")).read_text())
    assert all(r["prompt"].startswith("sha256:") and len(r["prompt"]) == 23 for r in rows)
    calls = run / "llm_calls.jsonl"
    tampered = [json.loads(line) for line in calls.read_text().splitlines()]
    tampered[0]["prompt_hash"] = "0" * 16
    calls.write_text("".join(json.dumps(r) + "\n" for r in tampered))
    bad = tmp_path / "bad"
    assert main(["export", str(run), "--format", "swarmbench", "--out", str(bad), "--keep-prompts"]) == 2
    assert not bad.exists()


def test_a_box_pushed_off_the_map_leaves_the_grid():
    from mam_bench.models.swarm.export import grid_of

    terrain = [["W"] * 4, ["W", ".", ".", "W"], ["W", ".", ".", "W"], ["W", ".", ".", "W"]]
    record = {"box": [[1, 1], [0, -1], [-1, 2]], "marks": {}, "positions": [[2, 2], None], "alt_state": [True, False]}
    grid = grid_of(terrain, record)
    assert grid[1][1] == "B" and grid[2][2] == "a" and sum(row.count("B") for row in grid) == 1
