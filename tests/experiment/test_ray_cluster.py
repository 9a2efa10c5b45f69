"""The smoke suite spread over a two-node Ray cluster (`ray start --head`, a second node joining it)
gives the table and summary of one process: only the wall times differ, and both nodes ran pairs."""

from __future__ import annotations

import json

import pandas as pd

from mam_bench.experiment import run_suite
from mam_bench.experiment.executors import run_job
from mam_bench.experiment.suite import parse_suite
from mam_bench.experiment.table import TIMING_COLUMNS, read_table
from tests.experiment.conftest import REPO, cli
from tests.experiment.ray_nodes import cluster_env, two_nodes

SMOKE = REPO / "suites" / "smoke.yaml"
SMALL = {"params": {"size": 10, "max_rounds": 20}, "rounds": 3, "controller": "rule"}


def test_two_nodes_give_the_table_of_one_process(tmp_path) -> None:
    one = cli("experiment", SMOKE, "--out", tmp_path / "one", "--jobs", "1")
    assert one.returncode == 0, one.stderr
    shared = cluster_env()
    with two_nodes(shared) as address:
        two = cli("experiment", SMOKE, "--out", tmp_path / "two", "--executor", "ray", "--address", address, env=shared)
    assert two.returncode == 0, two.stderr[-3000:]

    a = read_table(tmp_path / "one" / "table.csv")
    b = read_table(tmp_path / "two" / "table.csv")
    assert len(a) > 0 and a["world"].nunique() == 7
    pd.testing.assert_frame_equal(a.drop(columns=list(TIMING_COLUMNS)), b.drop(columns=list(TIMING_COLUMNS)))
    summary = [pd.read_csv(tmp_path / run / "summary.csv") for run in ("one", "two")]
    pd.testing.assert_frame_equal(*summary)

    lines = (tmp_path / "two" / "workers.jsonl").read_text().splitlines()
    workers = [json.loads(line) for line in lines]
    assert sorted(w["pair_id"] for w in workers) == sorted(b["pair_id"])
    assert len({w["node"] for w in workers}) == 2  # the pairs crossed to the second node
    local = [json.loads(line) for line in (tmp_path / "one" / "workers.jsonl").read_text().splitlines()]
    assert all("node" not in w and w["host"] == workers[0]["host"] for w in local)


class _OtherDisk:
    """Runs each pair for real, but into a folder the experiment cannot see, as a second machine
    without a shared file system would."""

    slots = 1

    def __init__(self, disk):
        self.disk = disk
        self.done: list = []

    def submit(self, job: dict) -> str:
        self.done.append(run_job({**job, "out": str(self.disk / job["pair_id"])}))
        return job["pair_id"]

    def wait(self, handles: list, timeout: float) -> list:
        return [(handles[0], self.done.pop(0), None)]

    def shutdown(self) -> None:
        pass


def test_pairs_whose_folders_land_on_another_disk_fail_and_say_why(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(run_suite, "make_executor", lambda *a: _OtherDisk(tmp_path / "elsewhere"))
    suite = parse_suite({"name": "far", "seeds": 1, "baselines": [], "cases": [{"world": "schelling", **SMALL}]})
    outcome = run_suite.run_experiment(suite, tmp_path / "exp")
    assert outcome.finished == 0 and len(outcome.failed) == 1
    assert "must be a shared file system mounted at the same path" in outcome.failed[0][1]
    assert (tmp_path / "elsewhere" / outcome.failed[0][0] / "result.json").is_file()  # it did run
