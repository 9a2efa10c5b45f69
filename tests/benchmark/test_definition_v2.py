"""mam-bench-v2 beside v1: v1 keeps its content hash, v2 covers every world with at least 10 quick
seeds, and its scenarios' own quick doses reach the suite the benchmark plays."""

from __future__ import annotations

from pathlib import Path

from mam_bench.benchmark.definition import Entry, build_suite, definition_hash, load_benchmark, parse_seeds
from mam_bench.benchmark.steerability import CALIBRATION_SEEDS
from tests.benchmark.test_definition import SHIPPED, WORLDS

V2 = Path(__file__).resolve().parents[2] / "suites" / "benchmark-v2.yaml"


def test_v1_keeps_its_hash() -> None:
    # the hash stored in every v1 folder (docs/results/benchmark-*/benchmark.json) before doses existed
    assert definition_hash(load_benchmark(SHIPPED)) == "6074d793f58e"


def test_v2_is_a_new_benchmark_over_every_world() -> None:
    v1, v2 = load_benchmark(SHIPPED), load_benchmark(V2)
    assert v2.name == "mam-bench-v2" and definition_hash(v2) != definition_hash(v1)
    assert set(v2.worlds()) == WORLDS
    for tier in v2.tiers.values():
        assert not set(parse_seeds(tier.seeds)) & set(CALIBRATION_SEEDS)
    assert len(parse_seeds(v2.tier("quick").seeds)) >= 10


def test_v2_quick_doses_reach_the_suite() -> None:
    v2 = load_benchmark(V2)
    suite = build_suite(v2, Entry(policy="random", tier="quick", seeds=(1000,)))
    rounds = {c.name.split("/")[0]: c.rounds for c in suite.cases}
    for s in v2.scenarios:
        dose = s.doses.get("quick")
        assert rounds[s.name] == (dose.rounds if dose and dose.rounds else v2.tier("quick").rounds)
