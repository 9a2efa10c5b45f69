"""What `run` and `worlds` print: a metric is one column however the world names it twice, every
run ends with a sentence reading its lift against the baselines, `worlds` is an aligned table."""

from __future__ import annotations

import re

from mam_bench.cli import main
from mam_bench.registry import world_names


def _run(capsys, tmp_path, *argv: str) -> list[str]:
    assert main(["run", *argv, "--out", str(tmp_path / "out")]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_metric_named_twice_is_one_column(capsys, tmp_path) -> None:
    lines = _run(capsys, tmp_path, "pursuit", "--policy", "heuristic", "--objective", "hinder", "--param", "board=off")
    head = next(line for line in lines if "status*" in line)
    assert head.split() == ["status*", "rounds", "score"], head


def test_every_run_reads_its_lift_against_the_better_baseline(capsys, tmp_path) -> None:
    lines = _run(capsys, tmp_path, "voter", "--seed", "4", "--policy", "heuristic", "--influence", "3", "--rounds", "5")
    baselines = next(line for line in lines if line.startswith("baselines"))
    lifts = {name: float(v) for name, v in re.findall(r"(\w+) lift ([+-]\d\.\d{4})", baselines)}
    lift = float(re.search(r"   lift ([+-]\d\.\d{4})", "\n".join(lines)).group(1))
    reading = next(line for line in lines if line.startswith("reading:"))
    best = max(lifts, key=lifts.get)
    assert f"the better baseline ({best} {lifts[best]:+.4f})" in reading
    assert ("does not beat" in reading) == (lift <= lifts[best]), reading
    assert lines[-1] == "* statuses and the other terms: docs/glossary.md"


def test_null_steering_reads_as_such(capsys, tmp_path) -> None:
    lines = _run(capsys, tmp_path, "voter", "--policy", "rule", "--rounds", "3")
    assert any(line.startswith("reading: null steering") for line in lines), lines


def test_worlds_is_an_aligned_table(capsys) -> None:
    assert main(["worlds"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["world", "metric", "objectives", "summary"]
    assert [line.split()[0] for line in lines[1:]] == world_names()
    for column in ("metric", "objectives", "summary"):
        at = lines[0].index(column)
        for line in lines[1:]:  # every cell starts where its head does
            assert line[at - 2 : at] == "  " and line[at] != " ", (column, line)
