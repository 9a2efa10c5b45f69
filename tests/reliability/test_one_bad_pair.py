"""One bad pair never breaks an experiment: the others run, the summary is written, the failure listed."""

from __future__ import annotations

import json
import pickle

import pandas as pd
import yaml

from mam_bench.cli import main
from mam_bench.errors import ConfigError
from mam_bench.experiment.executors import PairFailed
from mam_bench.experiment.run_suite import MAX_ATTEMPTS, run_experiment
from mam_bench.experiment.suite import parse_suite

SMALL = {"params": {"size": 10, "max_rounds": 20}, "rounds": 3}


def _suite(broken: dict) -> dict:
    # no baselines: this test counts the suite's own pairs (the stats branch added stay/mimic
    # baseline pairs to every suite by default)
    return {
        "name": "one-broken",
        "seeds": 2,
        "baselines": [],
        "cases": [
            {"name": "good-rule", "world": "schelling", "controller": "rule", **SMALL},
            {"name": "broken", "world": "schelling", **broken, **SMALL},
            {"name": "good-random", "world": "schelling", "controller": "random", **SMALL},
        ],
    }


def test_worker_errors_survive_pickling():
    exc = pickle.loads(pickle.dumps(ConfigError("replay", "give --replay RUN_DIR")))
    assert (exc.field, str(exc)) == ("replay", "replay: give --replay RUN_DIR")
    failed = pickle.loads(pickle.dumps(PairFailed("ConfigError: replay: x", backend=True)))
    assert (str(failed), failed.backend) == ("ConfigError: replay: x", True)


def test_a_suite_with_a_broken_case_runs_the_others_and_lists_it(tmp_path):
    # `controller: replay` without a source: the worker raises ConfigError (run_experiment is called
    # directly here, past the command's own check, to exercise the worker path)
    suite = parse_suite(_suite({"controller": "replay"}))
    out = tmp_path / "exp"
    outcome = run_experiment(suite, out, jobs=2)
    assert outcome.finished == 4 and len(outcome.failed) == 2
    table = pd.read_csv(out / "table.csv")
    assert sorted(set(table["case"])) == ["good-random", "good-rule"] and len(table) == 4
    assert (out / "summary.csv").exists()
    rows = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    assert {r["case"] for r in rows} == {"broken"} and all("replay" in r["error"] for r in rows)
    assert all(r["attempt"] == 1 for r in rows)
    # a rerun does not stop there: it retries the failed pairs, a bounded number of times
    for attempt in range(2, MAX_ATTEMPTS + 1):
        again = run_experiment(suite, out, jobs=2)
        assert again.skipped == 4 and len(again.failed) == 2 and again.finished == 0
    last = run_experiment(suite, out, jobs=2)
    assert len(last.failed) == 0 and len(last.given_up) == 2
    attempts = [json.loads(line)["attempt"] for line in (out / "failures.jsonl").read_text().splitlines()]
    assert sorted(attempts) == sorted(list(range(1, MAX_ATTEMPTS + 1)) * 2)


def test_the_command_rejects_what_a_worker_would(tmp_path, capsys):
    cases = [
        ({"controller": "replay"}, "cases[1].controller_options.replay"),
        ({"model": "openai:gpt-4o-mini", "controller_options": {"temperatur": 1}}, "cases[1].controller_options"),
        ({"model": "openai:gpt-4o-mini", "controller_options": {"temperature": 9}}, "temperature"),
        (
            {"model": "openai:gpt-4o-mini", "controller_options": {"api_key_env": "MAM_BENCH_UNSET_VARIABLE"}},
            "api_key_env",
        ),
    ]
    for broken, field in cases:
        path = tmp_path / "suite.yaml"
        path.write_text(yaml.safe_dump(_suite(broken)))
        out = tmp_path / "exp"
        assert main(["experiment", str(path), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and field in err, err
        assert not out.exists()
