"""mam-bench-v2 beside v1: v1 keeps its content hash, v2 plays at least 10 quick seeds, holds exactly
the candidates whose published profile shows headroom, and its own quick doses reach the suite."""

from __future__ import annotations

from pathlib import Path

from mam_bench.benchmark.definition import Entry, build_suite, definition_hash, load_benchmark, parse_seeds
from mam_bench.benchmark.steerability import CALIBRATION_SEEDS
from tests.benchmark.test_definition import SHIPPED, WORLDS

ROOT = Path(__file__).resolve().parents[2]
V2 = ROOT / "suites" / "benchmark-v2.yaml"
CANDIDATES = ROOT / "suites" / "benchmark-v2-candidates.yaml"
PROFILE = ROOT / "docs" / "results" / "steerability.md"


def shown(section: str) -> set[str]:
    """Scenarios whose headroom row reads `yes` in the published v2 profiles."""
    text = PROFILE.read_text(encoding="utf-8")
    out = set()
    for part in text.split("\n## ")[1:]:
        if part.startswith(section):
            for line in part.splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if line.startswith("|") and cells[-1] == "yes":
                    out.add(cells[0])
    return out


def test_v1_keeps_its_hash() -> None:
    # the hash stored in every v1 folder (docs/results/benchmark-*/benchmark.json) before doses existed
    assert definition_hash(load_benchmark(SHIPPED)) == "6074d793f58e"


def test_v2_is_a_new_benchmark_over_every_world() -> None:
    v1, v2 = load_benchmark(SHIPPED), load_benchmark(V2)
    assert v2.name == "mam-bench-v2" and definition_hash(v2) != definition_hash(v1)
    assert set(v2.worlds()) <= WORLDS
    for tier in v2.tiers.values():
        assert not set(parse_seeds(tier.seeds)) & set(CALIBRATION_SEEDS)
    assert len(parse_seeds(v2.tier("quick").seeds)) >= 10


def test_v2_quick_doses_reach_the_suite() -> None:
    v2 = load_benchmark(V2)
    suite = build_suite(v2, Entry(controller="random", tier="quick", seeds=(1000,)))
    rounds = {c.name.split("/")[0]: c.rounds for c in suite.cases}
    for s in v2.scenarios:
        dose = s.doses.get("quick")
        assert rounds[s.name] == (dose.rounds if dose and dose.rounds else v2.tier("quick").rounds)


def test_v2_holds_exactly_the_candidates_with_headroom_shown() -> None:
    v2, candidates = load_benchmark(V2), load_benchmark(CANDIDATES)
    names = {s.name for s in v2.scenarios}
    assert names == shown("v2, quick tier")
    by_name = {s.name: s for s in candidates.scenarios}
    for s in v2.scenarios:  # the scenario profiled, unchanged
        assert s == by_name[s.name]


def profiled() -> set[tuple[str, str]]:
    """(scenario, tier) of every headroom row in the current profiles (not the `Earlier` ones)."""
    text = PROFILE.read_text(encoding="utf-8")
    out = set()
    for part in text.split("\n## ")[1:]:
        if part.startswith("Earlier"):
            continue
        for line in part.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and len(cells) == 10 and cells[-1] in ("yes", "no"):
                out.add((cells[0], cells[1]))
    return out


def test_every_v1_and_v2_scenario_has_a_profile_at_both_tiers() -> None:
    names = {s.name for b in (load_benchmark(SHIPPED), load_benchmark(V2)) for s in b.scenarios}
    rows = profiled()
    missing = sorted((n, tier) for n in names for tier in ("quick", "full") if (n, tier) not in rows)
    assert not missing
