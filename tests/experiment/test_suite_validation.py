"""A bad suite is rejected whole, before any pair runs, naming the path to the bad field."""

from __future__ import annotations

import pytest

from mam_bench.errors import ConfigError
from mam_bench.experiment.suite import pair_id, pairs_of, parse_suite
from tests.experiment.conftest import cli

BASE = {"world": "schelling", "params": {"size": 10}}

BAD = [
    ({"cases": [BASE, {**BASE, "params": {"threshld": "1/2"}}]}, "cases[1].params.threshld"),
    ({"cases": [BASE], "seeds": -3}, "seeds"),
    ({"cases": [BASE, {"world": "atlantis"}]}, "cases[1].world"),
    ({"cases": [{**BASE, "model": "acme:gpt-9"}]}, "cases[0].model"),
    ({"cases": [{**BASE, "polcy": "rule"}]}, "cases[0].polcy"),
    ({"cases": [{**BASE, "params": {"threshold": "3/2"}}]}, "cases[0].params.threshold"),
    ({"cases": [{**BASE, "objective": "sideways"}]}, "cases[0].objective"),
    ({"cases": [{**BASE, "controller": "telepathy"}]}, "cases[0].controller"),
    ({"cases": [BASE], "repeats": 0}, "repeats"),
    ({"cases": [BASE], "seeds": [3, -1]}, "seeds"),
    ({"cases": []}, "cases"),
]


@pytest.mark.parametrize("data,field", BAD)
def test_bad_suite_names_the_field(data: dict, field: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_suite(data)
    assert err.value.field == field, str(err.value)


def test_cli_rejects_before_running(write_suite, tmp_path) -> None:
    suite = write_suite({"cases": [BASE, {**BASE, "params": {"size": 10, "threshld": "1/2"}}], "seeds": 2})
    out = tmp_path / "exp"
    proc = cli("experiment", str(suite), "--out", str(out))
    assert proc.returncode == 2
    assert "cases[1].params.threshld: unknown" in proc.stderr
    assert not out.exists()


def test_pair_ids_follow_content_not_position() -> None:
    a = {**BASE, "controller": "rule"}
    b = {**BASE, "controller": "random"}
    one = parse_suite({"cases": [a, b], "seeds": 2})
    two = parse_suite({"cases": [b, {**a, "name": "renamed"}], "seeds": 2})
    assert {p.pair_id for p in pairs_of(one)} == {p.pair_id for p in pairs_of(two)}
    # 2 cases x 2 seeds, plus their shared baselines on the same 2 seeds (`stay`, and `mimic` since
    # Schelling gained rule_action on the worlds branch); `rule` is itself a case, so no rule-vs-rule
    baselines = {b for c in one.cases for b in one.baseline_controllers(c)}
    assert len({p.pair_id for p in pairs_of(one)}) == 2 * 2 + 2 * len(baselines)
    assert pair_id(one.cases[0], 0, 0) != pair_id(one.cases[0], 0, 1)
