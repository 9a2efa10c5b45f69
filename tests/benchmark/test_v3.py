"""Benchmark v3 end to end on a reduced definition: the ceiling command ships per seed the best
known lift with a replayable plan, a rated controller plays only its own pairs and is scored against
that file, ties read as ties, and a controller above the ceiling is flagged."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from mam_bench.benchmark.ceiling import decisions_of, load_ceiling
from mam_bench.benchmark.definition import definition_hash, load_benchmark
from mam_bench.benchmark.leaderboard import build_board, leaderboard_markdown
from mam_bench.benchmark.leaderboard_v3 import tables_v3
from mam_bench.cli import main
from mam_bench.errors import ConfigError
from mam_bench.experiment.table import read_table
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare
from mam_bench.steering.oracle import OracleController

SCENARIOS = [
    {"name": "voter-spread", "world": "voter", "objective": "spread", "rounds": 4, "influence": 2},
    {"name": "boltzmann-equalize", "world": "boltzmann", "objective": "equalize", "rounds": 4, "influence": 2},
]


def v3_file(tmp_path: Path, ceiling: Path) -> Path:
    data = {
        "name": "mam-bench-tiny-v3",
        "score": "v3",
        "ceiling": str(ceiling),
        "ceiling_from": ["greedy", "random"],
        "tiers": {"smoke": {"purpose": "smoke", "seeds": "0-1"}, "ranked": {"purpose": "ranking", "seeds": "0-2"}},
        "scenarios": [
            {**s, "reference": "oracle", "reference_options": {"candidates": 1, "sweeps": 1}} for s in SCENARIOS
        ],
    }
    path = tmp_path / "tiny-v3.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> tuple[Path, Path]:
    """A definition and its ceiling for tier `ranked`, computed once by the command."""
    tmp = tmp_path_factory.mktemp("v3")
    definition = v3_file(tmp, tmp / "ceiling")
    code = main(
        [
            "ceiling",
            "--definition",
            str(definition),
            "--tier",
            "ranked",
            "--out",
            str(tmp / "ceiling" / "ranked"),
            "--jobs",
            "1",
        ]
    )
    assert code == 0
    return definition, tmp / "ceiling" / "ranked"


def test_the_ceiling_is_the_best_lift_of_every_source_with_its_plan(shipped) -> None:
    definition, folder = shipped
    data = json.loads((folder / "ceiling.json").read_text())
    bench = load_benchmark(definition)
    assert data["definition_hash"] == definition_hash(bench)
    table = read_table(folder / "table.csv")
    for name, scenario in data["scenarios"].items():
        for seed, cell in scenario["seeds"].items():
            assert cell["ceiling"] == max(cell["lifts"].values())
            assert set(cell["lifts"]) >= {"oracle", "greedy", "random", "stay", "rule"}
            assert cell["placebos"]["rule"] == 0.0
            played = table[(table.seed == int(seed)) & (table.case.str.startswith(name))]
            assert cell["ceiling"] == pytest.approx(float(played.lift.max()))


def test_the_shipped_plan_replays_to_its_treatment(shipped) -> None:
    """The plan stored for a seed, played round by round from the seed's start, ends where the
    treatment that reached the ceiling ended."""
    definition, folder = shipped
    data = json.loads((folder / "ceiling.json").read_text())
    table = read_table(folder / "table.csv")
    for s in SCENARIOS:
        cell = data["scenarios"][s["name"]]["seeds"]["1"]
        world_cls = get_world(s["world"])
        spec = PairSpec.build(
            world=s["world"], seed=1, objective=s["objective"], controller="rule", influence=2, rounds=4
        )
        world = prepare(spec).new_world(treatment=True)
        planner = OracleController(world_cls, s["objective"])
        planner.bind(s["world"], s["objective"], 1)
        value = asyncio.run(planner.rollout(world, 4, tuple(decisions_of(cell["plan"])), "rule"))
        rows = table[(table.seed == 1) & (table.case.str.startswith(s["name"]))]
        finals = {float(world_cls.scoring.objectives[s["objective"]] * f) for f in rows.treatment_final}
        assert any(abs(value[0] - f) < 1e-9 for f in finals), (value, finals)


def test_a_rated_controller_plays_only_its_pairs_and_ties_read_as_ties(shipped, tmp_path) -> None:
    definition, _ = shipped
    out = tmp_path / "greedy"
    code = main(
        [
            "benchmark",
            "--policy",
            "greedy",
            "--definition",
            str(definition),
            "--tier",
            "ranked",
            "--out",
            str(out),
            "--jobs",
            "1",
        ]
    )
    assert code == 0
    table = read_table(out / "table.csv")
    assert set(table.controller) == {"greedy"}  # no reference, no placebo played
    board = build_board([out])
    t = tables_v3(board)
    rows = {r[0]: r for r in t["ranked"][1]}
    assert set(rows) == {"ceiling", "rule", "stay", "mimic", "greedy"}
    above = t["ranked"][0].index("above ceiling")
    assert rows["greedy"][above] == "0"  # greedy is one of the ceiling's sources: never above it
    scen = t["scenarios"]
    ceiling_col = scen[0].index("ceiling")
    assert all(line[ceiling_col] == "ties the ceiling on every seed" for line in scen[1] if line[5] == "yes")
    assert "[1.00, 1.00]" not in leaderboard_markdown(board)


def test_a_controller_above_the_ceiling_is_flagged(shipped, tmp_path) -> None:
    """A ceiling lowered by hand on one seed: the rated row beats it there, and the board says so."""
    definition, folder = shipped
    data = json.loads((folder / "ceiling.json").read_text())
    low = tmp_path / "low"
    (low / "ranked").mkdir(parents=True)
    cell = data["scenarios"]["voter-spread"]["seeds"]["0"]
    cell["ceiling"] = min(cell["lifts"].values()) - 5.0
    text = definition.read_text().replace(str(folder.parent), str(low))
    lowered = tmp_path / "lowered.yaml"
    lowered.write_text(text)
    data["definition_hash"] = definition_hash(load_benchmark(lowered))  # the file names its folder
    (low / "ranked" / "ceiling.json").write_text(json.dumps(data))
    out = tmp_path / "random"
    code = main(
        [
            "benchmark",
            "--policy",
            "random",
            "--definition",
            str(lowered),
            "--tier",
            "ranked",
            "--out",
            str(out),
            "--jobs",
            "1",
        ]
    )
    assert code == 0
    board = build_board([out])
    assert board.above["random"] >= 1
    assert "beats the ceiling" in leaderboard_markdown(board)


def test_a_tier_without_a_shipped_ceiling_is_refused_before_anything_is_written(shipped, tmp_path, capsys) -> None:
    definition, _ = shipped
    out = tmp_path / "none"
    code = main(
        ["benchmark", "--policy", "random", "--definition", str(definition), "--tier", "smoke", "--out", str(out)]
    )
    err = capsys.readouterr().err
    assert code == 2 and "ships no ceiling for tier 'smoke'" in err
    assert not out.exists()


def test_a_v3_definition_needs_its_ceiling_and_tier_purposes(tmp_path) -> None:
    data = yaml.safe_load(v3_file(tmp_path, tmp_path / "c").read_text())
    del data["ceiling"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError, match="ceiling"):
        load_benchmark(bad)
    data = yaml.safe_load(v3_file(tmp_path, tmp_path / "c").read_text())
    del data["tiers"]["smoke"]["purpose"]
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError, match="purpose"):
        load_benchmark(bad)


def test_the_shipped_v3_file_loads_and_v1_v2_hashes_hold() -> None:
    root = Path(__file__).resolve().parents[2]
    v3 = load_benchmark(root / "suites" / "benchmark-v3.yaml")
    assert {t.purpose for t in v3.tiers.values()} == {"smoke", "ranking", "local"}
    assert definition_hash(load_benchmark(root / "suites" / "benchmark.yaml")) == "6074d793f58e"
    shipped = load_ceiling(v3, "smoke", [1000, 1001])  # the shipped smoke ceiling is this file's
    assert set(shipped["scenarios"]) == {s.name for s in v3.scenarios}


def test_the_ceiling_command_refuses_bad_input_before_writing(tmp_path, capsys) -> None:
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "c"
    v2 = str(root / "suites" / "benchmark-v2.yaml")
    assert main(["ceiling", "--definition", v2, "--tier", "quick", "--out", str(out)]) == 2
    assert "only a v3 benchmark ships a ceiling" in capsys.readouterr().err
    v3 = str(root / "suites" / "benchmark-v3.yaml")
    assert main(["ceiling", "--definition", v3, "--tier", "nightly", "--out", str(out)]) == 2
    assert "error: tier: unknown tier 'nightly'" in capsys.readouterr().err
    assert main(["ceiling", "--definition", str(tmp_path / "none.yaml"), "--tier", "smoke", "--out", str(out)]) == 2
    assert "error: definition: no such file" in capsys.readouterr().err
    assert not out.exists()
