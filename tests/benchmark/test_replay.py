"""`mam-bench benchmark --policy replay --replay DIR` plays a recorded benchmark's decisions again,
with no model, and reproduces its rows and its leaderboard row."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from mam_bench.benchmark.leaderboard import build_board, tables
from tests.benchmark.conftest import TINY
from tests.support.cli import cli_in_process
from tests.support.openai_server import OpenAIServer, last_user_text
from tests.support.schema_sampler import sample

KEY = "LOOPBACK_KEY"
COMPARED = ["seed", "lift", "treatment_final", "reference_compared", "delta", "valid", "policy_error_share"]


def entry_rows(folder: Path) -> pd.DataFrame:
    """The controller's rows (not the baselines' or the reference's), by scenario and seed."""
    manifest = json.loads((folder / "benchmark.json").read_text())
    table = pd.read_csv(folder / "table.csv", keep_default_na=False)
    scen = {k: i["scenario"] for k, items in manifest["roles"].items() for i in items if i["role"] == "entry"}
    rows = table[table["case_key"].isin(scen)].copy()
    rows["scenario"] = rows["case_key"].map(scen)
    return rows.sort_values(["scenario", "seed"]).reset_index(drop=True)


def test_replay_of_a_random_benchmark_reproduces_its_rows(tmp_path: Path, tiny: Path, capsys) -> None:
    rec, rep = tmp_path / "random", tmp_path / "replayed"
    assert (
        cli_in_process(capsys, "benchmark", "--policy", "random", "--definition", str(tiny), "--out", str(rec))[0] == 0
    )
    argv = ["benchmark", "--policy", "replay", "--replay", str(rec), "--definition", str(tiny), "--out", str(rep)]
    code, err = cli_in_process(capsys, *argv)
    assert code == 0, err
    a, b = entry_rows(rec), entry_rows(rep)
    assert len(a) == len(b) == 3 * 2 and set(b["controller"]) == {"replay"}
    pd.testing.assert_frame_equal(a[["scenario", *COMPARED]], b[["scenario", *COMPARED]])
    (ra,), (rb,) = build_board([rec]).rows, build_board([rep]).rows
    assert rb.controller == "random (replay)" and rb.scores == ra.scores
    # the whole score part of the row, intervals included (the bootstrap is seeded alike)
    (_, ca), (_, cb) = (tables(build_board([f]))[:2] for f in (rec, rep))
    assert cb[0][0] == "random (replay)" and cb[0][1:-5] == ca[0][1:-5]


def test_replay_refuses_a_folder_of_another_benchmark(tmp_path: Path, tiny: Path, capsys) -> None:
    rec = tmp_path / "random"
    assert (
        cli_in_process(
            capsys, "benchmark", "--policy", "random", "--definition", str(tiny), "--out", str(rec), "--seeds", "0"
        )[0]
        == 0
    )
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump({**TINY, "name": "mam-bench-other"}))
    argv = [
        "benchmark",
        "--policy",
        "replay",
        "--replay",
        str(rec),
        "--definition",
        str(other),
        "--out",
        str(tmp_path / "x"),
    ]
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and err.startswith("error: replay:") and not (tmp_path / "x").exists()


def mover(body: dict[str, Any]) -> str:
    """One call per decision (the tier's one_call): an answer drawn from the request's schema (seeded
    by the prompt's hash), else a post and a move chosen from that hash."""
    h = int(hashlib.sha256(last_user_text(body).encode()).hexdigest()[:8], 16)
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema")
    if schema is not None:  # a server that honours the request's schema (its legal cells)
        return json.dumps(sample(schema, random.Random(h)))
    action = {"stay": True} if h % 4 == 0 else {"row": h % 10, "col": (h // 10) % 10}
    return json.dumps({"message": f"going {h % 100}", "action": action})


def test_an_llm_benchmark_is_estimated_then_replayed_without_the_model(tmp_path: Path, capsys, monkeypatch) -> None:
    definition = tmp_path / "schelling.yaml"
    definition.write_text(yaml.safe_dump({**TINY, "scenarios": TINY["scenarios"][:1]}))
    monkeypatch.setenv(KEY, "not-a-secret")
    rec, rep = tmp_path / "llm", tmp_path / "replayed"
    with OpenAIServer(reply=mover) as srv:
        argv = ["benchmark", "--policy", "llm", "--model", "openai:loopback", "--base-url", srv.base_url]
        argv += ["--api-key-env", KEY, "--definition", str(definition), "--out", str(rec), "--jobs", "1"]
        code, err = cli_in_process(capsys, *argv)
        answered = srv.answered
    assert code == 0, err
    # estimate: 2 seeds x 2 agents x 3 rounds x 1 call, printed before the first call
    assert "estimate" in err and "schelling-integrate" in err and " 12 " in err
    a = entry_rows(rec)
    assert set(a["model"]) == {"openai:loopback"} and a["valid"].all()
    assert answered == a["requests"].sum() >= 12, (answered, a[["calls", "requests"]])  # repairs come on top
    decisions = [
        json.loads(x) for p in a["pair_id"] for x in (rec / "pairs" / p / "decisions.jsonl").read_text().splitlines()
    ]
    assert any(d["decision"] and "row" in (d["decision"] or {}) for d in decisions)  # the model moved agents

    monkeypatch.delenv(KEY)  # no key, no server: the replay needs neither
    argv = ["benchmark", "--policy", "replay", "--replay", str(rec), "--definition", str(definition), "--out", str(rep)]
    code, err = cli_in_process(capsys, *argv)
    assert code == 0, err
    b = entry_rows(rep)
    pd.testing.assert_frame_equal(a[["scenario", *COMPARED]], b[["scenario", *COMPARED]])
    (ra,), (rb,) = build_board([rec]).rows, build_board([rep]).rows
    assert (rb.controller, rb.model) == ("llm (replay)", "openai:loopback") and rb.scores == ra.scores and rb.calls == 0


def test_an_llm_benchmark_above_the_cost_guard_needs_yes(tmp_path: Path, tiny: Path, capsys, monkeypatch) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"openai:pricey": {"input": 1e6, "output": 1e6}}))  # $1 a token
    monkeypatch.setenv(KEY, "not-a-secret")
    argv = ["benchmark", "--policy", "llm", "--model", "openai:pricey", "--base-url", "http://127.0.0.1:9/v1"]
    argv += [
        "--api-key-env",
        KEY,
        "--price-table",
        str(prices),
        "--definition",
        str(tiny),
        "--out",
        str(tmp_path / "x"),
    ]
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and "error: yes:" in err and "estimate" in err
    assert not (tmp_path / "x").exists()


def test_the_estimate_adds_repairs_at_a_models_recorded_rate(tmp_path: Path, tiny: Path, capsys, monkeypatch) -> None:
    """A folder of earlier calls (one repair per ask, 3 s a call) doubles the estimated calls and
    gives a time; a --rates-from that is not a folder is refused before anything is written."""
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    row = {"model": "openai:slow", "phase": "one_call", "latency_s": 3.0, "cached": False}
    lines = [json.dumps({**row, "attempt": a}) for a in (0, 1, 0, 1)]
    (earlier / "llm_calls.jsonl").write_text("\n".join(lines) + "\n")
    monkeypatch.setenv(KEY, "not-a-secret")
    base = ["benchmark", "--policy", "llm", "--model", "openai:slow", "--base-url", "http://127.0.0.1:9/v1"]
    base += ["--api-key-env", KEY, "--definition", str(tiny), "--max-calls", "0"]
    code, err = cli_in_process(capsys, *base, "--rates-from", str(tmp_path / "none"), "--out", str(tmp_path / "x"))
    assert code == 2 and "error: rates_from:" in err and not (tmp_path / "x").exists()
    code, err = cli_in_process(capsys, *base, "--rates-from", str(earlier), "--out", str(tmp_path / "y"))
    table = err[err.index("estimate (") :]
    assert "recorded rate of openai:slow: 2 repairs in 2 asks (1.000 a call), 3.0 s a call" in table
    total = next(line for line in table.splitlines() if line.startswith("total")).split()
    assert "w/ repairs" in table and int(total[-3]) == 2 * int(total[1]), table
