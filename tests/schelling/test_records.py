"""Records redraw the world and readers use structured fields, not text."""

from __future__ import annotations

import ast
import asyncio
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from mam_bench.errors import ConfigError
from mam_bench.models.schelling.observe import render_grid
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.records import RunRecords, read_rounds
from mam_bench.registry import make_controller
from mam_bench.runner import PairSpec, prepare, run_treatment

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("policy, threshold", [("heuristic", "3/4"), ("random", "3/5")])
def test_final_picture_rebuilds_from_the_treatment_record_alone(tmp_path, policy, threshold):
    prep = prepare(PairSpec.build(world="schelling", seed=21, controller=policy, params={"threshold": threshold}))
    records = RunRecords(tmp_path)
    controller = make_controller(policy, prep.world_cls, prep.objective)
    world, _, _, _ = asyncio.run(run_treatment(prep, controller, records))
    records.close()
    last = read_rounds(tmp_path, "treatment.jsonl")[-1]
    size = last["size"]
    board = np.full(size * size, -1, dtype=np.int64)
    board[last["positions"]] = np.arange(len(last["positions"]))
    board = board.reshape(size, size)
    groups = np.array(last["groups"])
    satisfied = np.zeros(size * size, dtype=bool)
    satisfied[last["positions"]] = last["satisfied"]
    satisfied = satisfied.reshape(size, size)
    np.testing.assert_array_equal(board, world.board)
    np.testing.assert_array_equal(groups, world.types)
    np.testing.assert_array_equal(satisfied, world.satisfied_grid & (world.board >= 0))
    assert Fraction(last["threshold"]) == world.params.threshold
    redrawn = render_grid(board, groups, satisfied, set(last["influence"]))
    assert redrawn == world.observe(world.run.influence_ids[0]).grid


def test_huge_threshold_terms_are_rejected_naming_the_field():
    with pytest.raises(ConfigError) as err:
        SchellingParams.from_strings({"threshold": "0.75000000000000000000001"})
    assert err.value.field == "param.threshold"
    exact = SchellingParams.from_strings({"threshold": "750000000001/1000000000000"})  # 2**40 > den: kept exact
    assert exact.threshold == Fraction(750000000001, 10**12)


def test_huge_threshold_on_the_command_line(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mam_bench",
            "run",
            "schelling",
            "--param",
            f"threshold=1/{2**41}",
            "--out",
            str(tmp_path / "x"),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error: param.threshold:")
    assert not (tmp_path / "x").exists()


def test_exact_comparison_at_the_largest_denominator():
    """A threshold a hair above 3/4 makes a 6-of-8 neighbourhood dissatisfied; int64 stays exact."""
    from mam_bench.models.schelling.board import satisfied_cells

    den = 2**40
    num = 3 * den // 4 + 1
    tg = np.zeros((3, 3), dtype=np.int64)
    tg[0, 0] = tg[0, 1] = 1  # the centre (group 0) has 6 of 8 same
    ca = np.full((3, 3), 6)
    cb = np.full((3, 3), 2)
    assert not satisfied_cells(tg, ca, cb, num, den)[1, 1]
    assert satisfied_cells(tg, ca, cb, 3, 4)[1, 1]


READERS = ["models/schelling/heuristic.py", "models/schelling/renderer.py", "models/schelling/board_image.py"]


@pytest.mark.parametrize("path", READERS)
def test_readers_do_not_parse_text(path):
    """No `split`, no `re`, no grid characters: the heuristic and the dashboard read structured fields."""
    tree = ast.parse((ROOT / path).read_text())
    calls = [n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
    assert "split" not in calls and "partition" not in calls
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "re" not in names
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    decoded = strings & {"A", "a", "B", "b", "X", "Y", ".", "3/4"}
    assert not decoded, decoded
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert "grid" not in attrs or path.startswith("dashboards"), "the heuristic must not read the rendered grid"
