"""An explicit table of bad inputs across run, landscape, experiment, report,
animate, tasks and replay. Each must end in `error: FIELD: ...` (exit 2) or a failed backend
(exit 3), with no traceback, and leave every existing file and folder exactly as it was.

The CLI runs in-process (one `main(argv)` per case); a few cases run as real processes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from mam_bench.cli import main
from tests.support.cli import cli_in_process, cli_pipeline, cli_process

HUGE = "1999999999999999999/2000000000000000000"


def tree_state(root: Path) -> dict[str, str]:
    """Every path under root with a hash of its bytes (folders as 'dir')."""
    state = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if rel.endswith(".mam-bench.lock"):
            continue
        state[rel] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def _suite(**case) -> dict:
    return {"name": "f", "seeds": 1, "cases": [{"world": "schelling", "params": {"size": 10}, "rounds": 2, **case}]}


SUITES: dict[str, object] = {
    "unknown_world": _suite(world="nowhere"),
    "unknown_policy": _suite(controller="nope"),
    "replay_without_source": _suite(controller="replay"),
    "replay_missing_source": _suite(controller="replay", controller_options={"replay": "no/such/run"}),
    "llm_unknown_option": _suite(model="openai:m", controller_options={"temperatur": 1}),
    "llm_temperature_9": _suite(model="openai:m", controller_options={"temperature": 9}),
    "llm_unset_key": _suite(model="openai:m", controller_options={"api_key_env": "FUZZ_UNSET_VARIABLE"}),
    "llm_key_as_name": _suite(model="openai:m", controller_options={"api_key_env": "fuzz-pasted-key-123456x"}),
    "llm_bad_cache": _suite(model="openai:m", controller_options={"cache": "notadb.sqlite"}),
    "llm_cache_dir": _suite(model="openai:m", controller_options={"cache": "adir"}),
    "llm_price_missing": _suite(model="openai:m", controller_options={"price_table": "none.json"}),
    "llm_price_list": _suite(model="openai:m", controller_options={"price_table": "list.json"}),
    "llm_price_nonjson": _suite(model="openai:m", controller_options={"price_table": "binary.bin"}),
    "model_no_provider": _suite(model="gpt4"),
    "model_unknown_provider": _suite(model="nope:x"),
    "model_with_rule": _suite(controller="rule", model="openai:m"),
    "bad_param": _suite(params={"threshld": "1/2"}),
    "bad_threshold": _suite(params={"threshold": "abc"}),
    "huge_threshold": _suite(params={"threshold": HUGE}),
    "bad_objective": _suite(objective="nope"),
    "too_many_influence": _suite(influence=100000),
    "bad_influence_ids": _suite(influence_ids=[-1]),
    "zero_rounds": _suite(rounds=0),
    "seeds_zero": {"cases": [{"world": "schelling"}], "seeds": 0},
    "seeds_billion": {"cases": [{"world": "schelling"}], "seeds": 1000000000},
    "seeds_range_billion": {"cases": [{"world": "schelling"}], "seeds": "0-1000000000"},
    "seeds_bad_range": {"cases": [{"world": "schelling"}], "seeds": "9-3"},
    "seeds_negative": {"cases": [{"world": "schelling"}], "seeds": [-1]},
    "repeats_zero": {"cases": [{"world": "schelling"}], "repeats": 0},
    "repeats_huge": {"cases": [{"world": "schelling"}], "repeats": 10**7},
    "no_cases": {"cases": []},
    "cases_not_list": {"cases": "schelling"},
    "unknown_top_key": {"cases": [{"world": "schelling"}], "seedz": 3},
    "case_unknown_key": {"cases": [{"world": "schelling", "polcy": "rule"}]},
    "a_list": [1, 2, 3],
    "a_string": "just text",
    "null": None,
    "negative_influence": _suite(influence=-2),
    "llm_thousand_seeds": {
        "seeds": 1000,
        "cases": [
            {"world": "schelling", "model": "openai:m", "controller_options": {"base_url": "http://127.0.0.1:9/v1"}}
        ],
    },
}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """Existing runs, an experiment, a landscape and damaged files; the cases must change none of it."""
    root = tmp_path_factory.mktemp("fuzz")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(["run", "schelling", "--seed", "22", "--policy", "random", "--rounds", "3", "--out", "run"]) == 0
        assert (
            main(
                [
                    "landscape",
                    "schelling",
                    "--thresholds",
                    "1/2",
                    "--vacancies",
                    "1/4",
                    "--seeds",
                    "0-1",
                    "--size",
                    "10",
                    "--out",
                    "land.csv",
                ]
            )
            == 0
        )
        (root / "suite.yaml").write_text(yaml.safe_dump(_suite(controller="rule")))
        assert main(["experiment", "suite.yaml", "--out", "exp", "--jobs", "1"]) == 0
    finally:
        os.chdir(cwd)
    (root / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (root / "empty.txt").write_text("")
    (root / "list.json").write_text("[1, 2]")
    (root / "notadb.sqlite").write_text("this is not a database")
    (root / "adir").mkdir()
    (root / "afile").write_text("x")
    (root / "bad.yaml").write_text("cases: [unclosed\n")
    (root / "empty.yaml").write_text("")
    for name, data in SUITES.items():
        (root / f"s_{name}.yaml").write_text(yaml.safe_dump(data))
    for name, writer in {
        "torn": lambda d: (d / "treatment.jsonl").write_text((d / "treatment.jsonl").read_text()[:150]),
        "badspec": lambda d: (d / "spec.json").write_text("{not json"),
        "listspec": lambda d: (d / "spec.json").write_text("[1]"),
        "emptydec": lambda d: (d / "decisions.jsonl").write_text(""),
        "torndec": lambda d: (d / "decisions.jsonl").write_text((d / "decisions.jsonl").read_text()[:200]),
        "tampered": lambda d: (d / "decisions.jsonl").write_text(
            (d / "decisions.jsonl").read_text().replace('"actor_id": 0,', '"actor_id": 9999,', 1)
        ),
        "noresult": lambda d: (d / "result.json").unlink(),
        "badresult": lambda d: (d / "result.json").write_text("{not json"),
        "listresult": lambda d: (d / "result.json").write_text("[1, 2]"),
        "notreatment": lambda d: (d / "result.json").write_text(
            (d / "result.json").read_text().replace('"treatment"', '"treatmant"')
        ),
        "binrecords": lambda d: (d / "treatment.jsonl").write_bytes(bytes(range(256))),
    }.items():
        shutil.copytree(root / "run", root / name)
        writer(root / name)
    for name, text in {"empty": "", "header": "pair_id,case\n", "garbage": 'a,b\n1\n"unterminated\n'}.items():
        (root / f"exp_{name}").mkdir()
        (root / f"exp_{name}" / "table.csv").write_text(text)
    (root / "exp_binary").mkdir()
    (root / "exp_binary" / "table.csv").write_bytes(bytes(range(256)) * 8)
    shutil.copytree(root / "exp", root / "exp_corrupt")
    (root / "exp_corrupt" / "table.csv").write_bytes(b"\x00\xff" * 100)
    return root


RUN = ["run", "schelling", "--rounds", "2"]
REPLAY = ["run", "schelling", "--seed", "22", "--rounds", "3", "--policy", "replay"]
LLM = [*RUN, "--policy", "llm", "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1"]
LAND = ["landscape", "schelling", "--thresholds", "1/2", "--vacancies", "1/4", "--seeds", "0-1", "--size", "10"]

CASES: list[tuple[str, list[str]]] = [
    # --- run: records deleted before validation (item 1), flags (item 13)
    ("run bad policy into a run", ["run", "schelling", "--policy", "nope", "--out", "run"]),
    ("run bad policy --force", ["run", "schelling", "--policy", "nope", "--out", "run", "--force"]),
    ("run again into a run", [*RUN, "--out", "run"]),
    ("run unknown world", ["run", "nowhere", "--out", "new1"]),
    ("run no world", ["run", "--out", "new1"]),
    ("run empty world", ["run", "", "--out", "new1"]),
    ("run unknown objective", [*RUN, "--objective", "nope", "--out", "new1"]),
    ("run empty objective", [*RUN, "--objective", "", "--out", "new1"]),
    ("run empty model", [*RUN, "--policy", "llm", "--model", "", "--out", "new1"]),
    ("run llm without model", [*RUN, "--policy", "llm", "--out", "new1"]),
    ("run influence ids comma", [*RUN, "--influence-ids", ",", "--out", "new1"]),
    ("run influence ids letters", [*RUN, "--influence-ids", "a,b", "--out", "new1"]),
    ("run influence ids unknown", [*RUN, "--influence-ids", "99999", "--out", "new1"]),
    ("run influence ids negative", [*RUN, "--influence-ids", "-1", "--out", "new1"]),
    ("run influence ids duplicate", [*RUN, "--influence-ids", "3,3", "--out", "new1"]),
    ("run influence too many", [*RUN, "--influence", "100000", "--out", "new1"]),
    ("run influence negative", [*RUN, "--influence", "-1", "--out", "new1"]),
    ("run influence and ids", [*RUN, "--influence", "2", "--influence-ids", "1,2", "--out", "new1"]),
    ("run seed range", [*RUN, "--seed", "0-3", "--out", "new1"]),
    ("run seed negative", [*RUN, "--seed", "-1", "--out", "new1"]),
    ("run seed huge", [*RUN, "--seed", str(2**70), "--out", "new1"]),
    ("run seed float", [*RUN, "--seed", "1.5", "--out", "new1"]),
    ("run rounds zero", ["run", "schelling", "--rounds", "0", "--out", "new1"]),
    ("run rounds negative", ["run", "schelling", "--rounds", "-5", "--out", "new1"]),
    ("run rounds billion", ["run", "schelling", "--rounds", "1000000000", "--out", "new1"]),
    ("run max_rounds 1e9", [*RUN[:2], "--param", "max_rounds=1000000000", "--out", "new1"]),
    ("run param unknown", [*RUN, "--param", "threshld=1/2", "--out", "new1"]),
    ("run param no equals", [*RUN, "--param", "threshold", "--out", "new1"]),
    ("run param threshold text", [*RUN, "--param", "threshold=abc", "--out", "new1"]),
    ("run param threshold huge terms", [*RUN, "--param", f"threshold={HUGE}", "--out", "new1"]),
    ("run param threshold > 1", [*RUN, "--param", "threshold=3/2", "--out", "new1"]),
    ("run param threshold zero denominator", [*RUN, "--param", "threshold=1/0", "--out", "new1"]),
    ("run param vacancy nan", [*RUN, "--param", "vacancy=nan", "--out", "new1"]),
    ("run param vacancy 1", [*RUN, "--param", "vacancy=1", "--out", "new1"]),
    ("run param size zero", [*RUN, "--param", "size=0", "--out", "new1"]),
    ("run param size text", [*RUN, "--param", "size=big", "--out", "new1"]),
    # --- the scale of every world is bounded by its parameter model
    ("run schelling size 100000", [*RUN, "--param", "size=100000", "--out", "new1"]),
    ("run civil_violence size 1000", ["run", "civil_violence", "--param", "size=1000", "--out", "new1"]),
    ("run boltzmann n 1e6", ["run", "boltzmann", "--param", "n=1000000", "--out", "new1"]),
    ("run voter n 1e6", ["run", "voter", "--param", "n=1000000", "--out", "new1"]),
    ("run pursuit size 1000", ["run", "pursuit", "--param", "size=1000", "--out", "new1"]),
    ("run foraging agents 1e5", ["run", "foraging", "--param", "agents=100000", "--out", "new1"]),
    ("run board window zero", [*RUN, "--board-window", "0", "--out", "new1"]),
    ("run board window huge", [*RUN, "--board-window", "99999999", "--out", "new1"]),
    ("run post cap zero", [*RUN, "--post-cap", "0", "--out", "new1"]),
    ("run out is a file", [*RUN, "--out", "afile"]),
    ("run out under a file", [*RUN, "--out", "afile/sub"]),
    ("run out empty", [*RUN, "--out", ""]),
    ("run model with rule", [*RUN, "--model", "openai:m", "--out", "new1"]),
    ("run replay with heuristic", [*RUN, "--policy", "heuristic", "--replay", "run", "--out", "new1"]),
    ("run unknown flag", [*RUN, "--sed", "3", "--out", "new1"]),
    # --- resume
    ("resume no dir", ["run", "--resume", "nowhere"]),
    ("resume not a run", ["run", "--resume", "adir"]),
    ("resume broken spec", ["run", "--resume", "badspec"]),
    ("resume list spec", ["run", "--resume", "listspec"]),
    ("resume with world", ["run", "schelling", "--resume", "run"]),
    ("resume with seed", ["run", "--resume", "run", "--seed", "4"]),
    ("resume with policy", ["run", "--resume", "run", "--policy", "stay"]),
    ("resume with out", ["run", "--resume", "run", "--out", "new1"]),
    ("resume with force", ["run", "--resume", "run", "--force"]),
    # --- LLM options (items 4, 8, 11, 13)
    ("llm unset key var", [*LLM, "--api-key-env", "FUZZ_UNSET_VARIABLE", "--out", "new1"]),
    ("llm key as key var", [*LLM, "--api-key-env", "fuzz-pasted-key-123456x", "--out", "new1"]),
    ("llm empty key var", [*LLM, "--api-key-env", "", "--out", "new1"]),
    ("llm temperature 9", [*LLM, "--temperature", "9", "--out", "new1"]),
    ("llm temperature nan", [*LLM, "--temperature", "nan", "--out", "new1"]),
    ("llm temperature negative", [*LLM, "--temperature", "-1", "--out", "new1"]),
    ("llm concurrency zero", [*LLM, "--max-concurrency", "0", "--out", "new1"]),
    ("llm concurrency huge", [*LLM, "--max-concurrency", "100000", "--out", "new1"]),
    ("llm timeout zero", [*LLM, "--timeout", "0", "--out", "new1"]),
    ("llm timeout nan", [*LLM, "--timeout", "nan", "--out", "new1"]),
    ("llm timeout inf", [*LLM, "--timeout", "inf", "--out", "new1"]),
    ("llm retries negative", [*LLM, "--max-retries", "-1", "--out", "new1"]),
    ("llm retries huge", [*LLM, "--max-retries", "100000", "--out", "new1"]),
    ("llm deadline zero", [*LLM, "--deadline", "0", "--out", "new1"]),
    ("llm deadline nan", [*LLM, "--deadline", "nan", "--out", "new1"]),
    ("llm deadline negative", [*LLM, "--deadline", "-3", "--out", "new1"]),
    ("llm price table missing", [*LLM, "--price-table", "none.json", "--out", "new1"]),
    ("llm price table list", [*LLM, "--price-table", "list.json", "--out", "new1"]),
    ("llm price table binary", [*LLM, "--price-table", "binary.bin", "--out", "new1"]),
    ("llm price table empty", [*LLM, "--price-table", "empty.txt", "--out", "new1"]),
    ("llm price table dir", [*LLM, "--price-table", "adir", "--out", "new1"]),
    ("llm cache not a db", [*LLM, "--cache", "notadb.sqlite", "--out", "new1"]),
    ("llm cache a dir", [*LLM, "--cache", "adir", "--out", "new1"]),
    ("llm cache binary", [*LLM, "--cache", "binary.bin", "--out", "new1"]),
    ("llm empty base url", [*RUN, "--policy", "llm", "--model", "openai:m", "--base-url", "", "--out", "new1"]),
    ("llm unknown provider", [*RUN, "--policy", "llm", "--model", "nope:x", "--out", "new1"]),
    ("llm one call with stay", [*RUN, "--policy", "stay", "--one-call", "--out", "new1"]),
    ("llm timeout with rule", [*RUN, "--timeout", "5", "--out", "new1"]),
    ("llm max cost nan", [*LLM, "--max-cost", "nan", "--out", "new1"]),
    ("llm max cost negative", [*LLM, "--max-cost", "-1", "--out", "new1"]),
    ("llm max cost unpriced model", [*LLM, "--max-cost", "1", "--out", "new1"]),
    ("llm max cost with rule", [*RUN, "--max-cost", "1", "--out", "new1"]),
    # --- replay (item 9)
    ("replay without source", [*REPLAY, "--out", "new1"]),
    ("replay missing source", [*REPLAY, "--replay", "nowhere", "--out", "new1"]),
    ("replay into its source", [*REPLAY, "--replay", "run", "--out", "run"]),
    ("replay into its source forced", [*REPLAY, "--replay", "run", "--out", "run", "--force"]),
    (
        "replay other seed",
        ["run", "schelling", "--seed", "5", "--rounds", "3", "--policy", "replay", "--replay", "run", "--out", "new1"],
    ),
    (
        "replay other horizon",
        ["run", "schelling", "--seed", "22", "--rounds", "2", "--policy", "replay", "--replay", "run", "--out", "new1"],
    ),
    (
        "replay default horizon",
        ["run", "schelling", "--seed", "22", "--policy", "replay", "--replay", "run", "--out", "new1"],
    ),
    ("replay other params", [*REPLAY, "--param", "threshold=1/2", "--replay", "run", "--out", "new1"]),
    ("replay other objective", [*REPLAY, "--objective", "segregate", "--replay", "run", "--out", "new1"]),
    ("replay other influence ids", [*REPLAY, "--influence-ids", "1,2", "--replay", "run", "--out", "new1"]),
    (
        "replay other world",
        ["run", "pursuit", "--seed", "22", "--rounds", "3", "--policy", "replay", "--replay", "run", "--out", "new1"],
    ),
    ("replay empty decisions", [*REPLAY, "--replay", "emptydec", "--out", "new1"]),
    ("replay torn decisions", [*REPLAY, "--replay", "torndec", "--out", "new1"]),
    ("replay tampered id", [*REPLAY, "--replay", "tampered", "--out", "new1"]),
    ("replay unfinished run", [*REPLAY, "--replay", "noresult", "--out", "new1"]),
    ("replay damaged result", [*REPLAY, "--replay", "badresult", "--out", "new1"]),
    ("replay result a list", [*REPLAY, "--replay", "listresult", "--out", "new1"]),
    ("replay result without treatment", [*REPLAY, "--replay", "notreatment", "--out", "new1"]),
    ("replay a binary file", [*REPLAY, "--replay", "binary.bin", "--out", "new1"]),
    ("replay a directory without decisions", [*REPLAY, "--replay", "adir", "--out", "new1"]),
    # --- landscape (items 8, 10, 13)
    ("landscape out is a directory", [*LAND, "--out", "adir"]),
    ("landscape out under a file", [*LAND, "--out", "afile/l.csv"]),
    (
        "landscape unknown world",
        ["landscape", "nowhere", "--thresholds", "1/2", "--vacancies", "1/4", "--out", "l.csv"],
    ),
    (
        "landscape world without landscape",
        ["landscape", "pursuit", "--thresholds", "1/2", "--vacancies", "1/4", "--out", "l.csv"],
    ),
    ("landscape threshold text", [*LAND[:2], "--thresholds", "abc", "--vacancies", "1/4", "--out", "l.csv"]),
    ("landscape threshold huge terms", [*LAND[:2], "--thresholds", HUGE, "--vacancies", "1/4", "--out", "l.csv"]),
    ("landscape threshold empty", [*LAND[:2], "--thresholds", "", "--vacancies", "1/4", "--out", "l.csv"]),
    ("landscape threshold > 1", [*LAND[:2], "--thresholds", "5/4", "--vacancies", "1/4", "--out", "l.csv"]),
    ("landscape vacancy zero denominator", [*LAND[:2], "--thresholds", "1/2", "--vacancies", "1/0", "--out", "l.csv"]),
    ("landscape vacancy nan", [*LAND[:2], "--thresholds", "1/2", "--vacancies", "nan", "--out", "l.csv"]),
    ("landscape seeds billion", [*LAND[:6], "--seeds", "0-1000000000", "--out", "l.csv"]),
    ("landscape seeds reversed", [*LAND[:6], "--seeds", "9-3", "--out", "l.csv"]),
    ("landscape seeds text", [*LAND[:6], "--seeds", "a-b", "--out", "l.csv"]),
    ("landscape seeds negative", [*LAND[:6], "--seeds", "-3", "--out", "l.csv"]),
    ("landscape seeds empty", [*LAND[:6], "--seeds", ",", "--out", "l.csv"]),
    ("landscape max rounds zero", [*LAND, "--max-rounds", "0", "--out", "l.csv"]),
    ("landscape max rounds billion", [*LAND, "--max-rounds", "1000000000", "--out", "l.csv"]),
    ("landscape size 1000", [*LAND[:8], "--size", "1000", "--out", "l.csv"]),
    ("landscape size zero", [*LAND[:8], "--size", "0", "--out", "l.csv"]),
    ("landscape jobs zero", [*LAND, "--jobs", "0", "--out", "l.csv"]),
    ("landscape jobs 100000", [*LAND, "--jobs", "100000", "--out", "l.csv"]),
    ("landscape missing out", [*LAND]),
    # --- experiment (items 2, 7, 8, 13)
    *[(f"experiment suite {name}", ["experiment", f"s_{name}.yaml", "--out", "newexp"]) for name in SUITES],
    ("experiment binary suite", ["experiment", "binary.bin", "--out", "newexp"]),
    ("experiment missing suite", ["experiment", "none.yaml", "--out", "newexp"]),
    ("experiment suite is a dir", ["experiment", "adir", "--out", "newexp"]),
    ("experiment bad yaml", ["experiment", "bad.yaml", "--out", "newexp"]),
    ("experiment empty yaml", ["experiment", "empty.yaml", "--out", "newexp"]),
    ("experiment max cost nan", ["experiment", "suite.yaml", "--out", "newexp", "--max-cost", "nan"]),
    ("experiment max cost inf", ["experiment", "suite.yaml", "--out", "newexp", "--max-cost", "inf"]),
    ("experiment max cost negative", ["experiment", "suite.yaml", "--out", "newexp", "--max-cost", "-1"]),
    ("experiment max calls negative", ["experiment", "suite.yaml", "--out", "newexp", "--max-calls", "-1"]),
    ("experiment jobs zero", ["experiment", "suite.yaml", "--out", "newexp", "--jobs", "0"]),
    ("experiment jobs 100000", ["experiment", "suite.yaml", "--out", "newexp", "--jobs", "100000"]),
    ("experiment out is a file", ["experiment", "suite.yaml", "--out", "afile"]),
    ("experiment corrupt table on resume", ["experiment", "suite.yaml", "--out", "exp_corrupt"]),
    ("experiment llm suite needs --yes", ["experiment", "s_llm_thousand_seeds.yaml", "--out", "newexp"]),
    (
        "experiment unpriced model under max cost",
        ["experiment", "s_llm_thousand_seeds.yaml", "--out", "newexp", "--max-cost", "1"],
    ),
    ("experiment unknown executor", ["experiment", "suite.yaml", "--out", "newexp", "--executor", "slurm"]),
    ("experiment address with local", ["experiment", "suite.yaml", "--out", "newexp", "--address", "x:1"]),
    # --- report (item 13)
    ("report no dir", ["report", "nowhere"]),
    ("report dir without table", ["report", "adir"]),
    ("report a file", ["report", "afile"]),
    ("report empty table", ["report", "exp_empty"]),
    ("report header-only table", ["report", "exp_header"]),
    ("report garbage table", ["report", "exp_garbage"]),
    ("report binary table", ["report", "exp_binary"]),
    ("report out is a directory", ["report", "exp", "--out", "adir"]),
    ("report out under a file", ["report", "exp", "--out", "afile/r.html"]),
    ("report unknown pair", ["report", "exp", "--out", "new.html", "--pairs", "nosuchpair"]),
    # --- animate (item 13)
    ("animate fps nan", ["animate", "run", "--out", "a.gif", "--fps", "nan"]),
    ("animate fps tiny", ["animate", "run", "--out", "a.gif", "--fps", "1e-300"]),
    ("animate fps zero", ["animate", "run", "--out", "a.gif", "--fps", "0"]),
    ("animate fps inf", ["animate", "run", "--out", "a.gif", "--fps", "inf"]),
    ("animate fps huge", ["animate", "run", "--out", "a.gif", "--fps", "1e9"]),
    ("animate truncated treatment", ["animate", "torn", "--out", "a.gif"]),
    ("animate binary records", ["animate", "binrecords", "--out", "a.gif"]),
    ("animate not a run", ["animate", "adir", "--out", "a.gif"]),
    ("animate missing run", ["animate", "nowhere", "--out", "a.gif"]),
    ("animate out txt", ["animate", "run", "--out", "a.txt"]),
    ("animate out is a directory", ["animate", "run", "--out", "adir"]),
    ("animate out under a file", ["animate", "run", "--out", "afile/a.gif"]),
    # --- tasks
    ("tasks unknown world", ["tasks", "nowhere"]),
    ("tasks world without tasks", ["tasks", "schelling"]),
    ("tasks empty world", ["tasks", ""]),
    ("tasks no world", ["tasks"]),
]


@pytest.mark.parametrize("argv", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_a_clear_error_and_touches_nothing(argv, world, capsys, monkeypatch):
    monkeypatch.chdir(world)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    before = tree_state(world)
    code, err = cli_in_process(capsys, *argv)
    assert code in (2, 3), (code, err)
    assert "Traceback" not in err
    assert "error:" in err
    assert "fuzz-pasted-key-123456x" not in err
    assert tree_state(world) == before


#: replay mismatches: the error names what differs (the expected word was read off verify_source)
REPLAY_NAMES = {
    "replay other seed": "another seed",
    "replay other horizon": "another horizon",
    "replay default horizon": "another horizon",
    "replay other params": "another params",
    "replay other objective": "another objective",
    "replay other influence ids": "another influence_ids",
    "replay other world": "another world",
    "replay unfinished run": "holds no result.json",
    "replay damaged result": "is damaged",
    "replay result a list": "is damaged",
    "replay result without treatment": "is damaged",
}


@pytest.mark.parametrize("name", sorted(REPLAY_NAMES))
def test_replay_names_what_differs(name, world, capsys, monkeypatch):
    monkeypatch.chdir(world)
    code, err = cli_in_process(capsys, *dict(CASES)[name])
    assert code == 2
    assert err.startswith("error: replay: ") and REPLAY_NAMES[name] in err, err


def test_the_table_is_large_enough():
    commands = {argv[0] if argv[0] != "run" or "replay" not in argv else "replay" for _, argv in CASES}
    print(f"\nfuzz table: {len(CASES)} in-process cases + {len(SUBPROCESS)} subprocess cases")
    assert len(CASES) + len(SUBPROCESS) >= 150
    assert {"run", "landscape", "experiment", "report", "animate", "tasks", "replay"} <= commands


SUBPROCESS: list[tuple[str, list[str]]] = [
    ("run bad policy into a run", ["run", "schelling", "--policy", "nope", "--out", "run"]),
    ("experiment binary suite", ["experiment", "binary.bin", "--out", "newexp"]),
    ("landscape huge threshold", [*LAND[:2], "--thresholds", HUGE, "--vacancies", "1/4", "--out", "l.csv"]),
]


@pytest.mark.parametrize("argv", [c[1] for c in SUBPROCESS], ids=[c[0] for c in SUBPROCESS])
def test_bad_input_in_a_real_process(argv, world):
    before = tree_state(world)
    proc = cli_process(*argv, cwd=world)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr
    assert tree_state(world) == before


def test_worlds_into_a_closed_pipe_prints_no_traceback(world):
    """`mam-bench worlds | head -1`: the reader leaves early; no BrokenPipeError traceback."""
    proc = cli_pipeline("worlds", into="head -1", cwd=world)
    assert proc.stdout.strip() and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_the_fuzz_feeds_every_flag_of_every_command(monkeypatch):
    """bench/fuzz_cli.py (the table in docs/reference/files-and-resume.md) passes each long flag of
    each subcommand in at least one case, the newest commands' included."""
    import importlib.util

    from tests.support.cli import REPO

    spec = importlib.util.spec_from_file_location("fuzz_cli", REPO / "bench" / "fuzz_cli.py")
    fuzz = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "fuzz_cli", fuzz)  # its dataclasses look their module up
    spec.loader.exec_module(fuzz)
    cases = fuzz.cases()
    assert fuzz.unused_flags(cases) == {}
    assert {"benchmark", "report", "export", "tasks"} <= {c.argv[0] for c in cases if c.argv}
    assert any("--leaderboard" in c.argv for c in cases) and any("--agentworld" in c.argv for c in cases)
