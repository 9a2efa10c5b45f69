"""Messages that say what to do: each small mistake gets `error: FIELD: ...`, exit 2, no files."""

from __future__ import annotations

import pytest

from tests.support.cli import cli_in_process as run


def test_a_seed_range_points_to_experiment(capsys, tmp_path) -> None:
    code, err = run(capsys, "run", "schelling", "--seed", "0-3", "--out", str(tmp_path / "r"))
    assert code == 2 and err.startswith("error: seed:") and "mam-bench experiment" in err
    assert not (tmp_path / "r").exists()


def test_a_reversed_seed_range_says_so(capsys, tmp_path) -> None:
    code, err = run(
        capsys,
        "landscape",
        "schelling",
        "--thresholds",
        "1/2",
        "--vacancies",
        "1/4",
        "--seeds",
        "3-1",
        "--out",
        str(tmp_path / "l.csv"),
    )
    assert code == 2 and "reversed" in err and "1-3" in err
    assert not (tmp_path / "l.csv").exists()


def test_llm_without_model_says_to_pass_model(capsys, tmp_path) -> None:
    code, err = run(capsys, "run", "schelling", "--policy", "llm", "--out", str(tmp_path / "r"))
    assert code == 2 and err.startswith("error: model:") and "--model" in err


@pytest.mark.parametrize("typos", [2, 3])
def test_a_suite_reports_every_error(capsys, tmp_path, typos: int) -> None:
    cases = [
        "  - {world: schellng, controller: heuristic}",
        "  - {world: schelling, controller: heuristic, objective: nope}",
        "  - {world: schelling, controller: heuristic, objectve: integrate}",
    ][:typos]
    suite = tmp_path / "s.yaml"
    suite.write_text("name: s\nseeds: 2\ncases:\n" + "\n".join(cases) + "\n")
    code, err = run(capsys, "experiment", str(suite), "--out", str(tmp_path / "x"))
    assert code == 2
    assert "schellng" in err and "'nope'" in err
    if typos == 3:
        assert "objectve" in err
    assert not (tmp_path / "x").exists()
