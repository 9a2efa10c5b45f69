"""The shipped benchmark file and how a controller's benchmark becomes a suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from mam_bench.benchmark.definition import Entry, build_suite, definition_hash, load_benchmark, parse_seeds, roles
from mam_bench.benchmark.estimate import estimate
from mam_bench.errors import ConfigError
from mam_bench.experiment.suite import pairs_of, parse_suite
from mam_bench.registry import get_world

SHIPPED = Path(__file__).resolve().parents[2] / "suites" / "benchmark.yaml"
WORLDS = {
    "schelling",
    "pursuit",
    "synchronization",
    "foraging",
    "flocking",
    "transport",
    "crafting",
    "boltzmann",
    "voter",
    "civil_violence",
}


def test_shipped_benchmark_fixes_the_scenarios() -> None:
    bench = load_benchmark(SHIPPED)
    assert bench.name == "mam-bench-v1" and set(bench.tiers) == {"full", "quick"}
    assert set(bench.worlds()) == WORLDS
    objectives = {(s.world, s.objective) for s in bench.scenarios}
    for world in ("pursuit", "synchronization", "foraging", "flocking", "transport"):
        assert {(world, "help"), (world, "hinder")} <= objectives
    assert {("schelling", "integrate"), ("schelling", "segregate")} <= objectives
    crafting = [s for s in bench.scenarios if s.world == "crafting"]
    tasks = {s.params["task"] for s in crafting}
    categories = {dict(get_world("crafting").Params.list_tasks())[t].split("]")[0].split(",")[0] for t in tasks}
    assert len(tasks) == 2 and len(categories) == 2, categories
    assert {s.objective for s in crafting} == {"accelerate", "shortage", "inequality"} and len(crafting) == 6
    for s in bench.scenarios:  # every scenario names what its world can play
        assert s.objective in get_world(s.world).scoring.objectives


def test_quick_tier_is_two_agents_few_seeds_short_and_counted() -> None:
    bench = load_benchmark(SHIPPED)
    quick = bench.tier("quick")
    assert quick.influence == 2 and quick.rounds <= 10 and len(parse_seeds(quick.seeds)) <= 3
    entry = Entry(controller="llm", models=("local:gemma3-270m",), tier="quick", seeds=tuple(parse_seeds(quick.seeds)))
    lines = estimate(build_suite(bench, entry))
    assert len(lines) == len(bench.scenarios)
    # 24 scenarios x 2 seeds x 2 agents x 5 rounds x 1 call (one_call): the figure the file's comment states
    assert sum(c.calls for c in lines) == 480 == len(bench.scenarios) * 2 * 2 * 5
    assert all(c.usd == 0.0 for c in lines)  # the local model is priced at 0


def test_a_session_agents_estimate_counts_its_tool_turns_and_conversation() -> None:
    """A session turn is up to turn_requests answers and a compaction summary, each carrying the
    conversation up to its budget: the estimate is that bound, not the stateless count."""
    bench = load_benchmark(SHIPPED)
    seeds = tuple(parse_seeds(bench.tier("quick").seeds))
    plain = Entry(controller="llm", models=("local:gemma3-270m",), tier="quick", seeds=seeds)
    session = plain.model_copy(update={"options": {"agent": "session", "turn_requests": 3}})
    a, b = estimate(build_suite(bench, plain)), estimate(build_suite(bench, session))
    for x, y in zip(a, b):
        assert y.calls == x.calls * (3 + 1)
        assert y.input_tokens == y.calls * (x.input_tokens // x.calls + 3000)  # the local model's budget


def test_a_models_recorded_calls_predict_its_repairs_and_time() -> None:
    """The shipped gemma record of the v1 quick tier (480 asks, 353 repairs) estimates that same
    tier at about its own count (833 calls), and its median seconds a call times them."""
    from mam_bench.benchmark.estimate import estimate_text
    from mam_bench.benchmark.rates import recorded_rates

    shipped = SHIPPED.parents[1] / "data" / "benchmark" / "mam-bench-v1-quick-gemma3-270m"
    rates = recorded_rates([shipped])
    gemma = rates["local:gemma3-270m"]
    assert (gemma.asks, gemma.repairs) == (480, 353)
    bench = load_benchmark(SHIPPED)
    entry = Entry(controller="llm", models=("local:gemma3-270m",), tier="quick", seeds=(1000, 1001))
    plain, rated = estimate(build_suite(bench, entry)), estimate(build_suite(bench, entry), rates=rates)
    # each scenario's line rounds its own count (20 asks -> 35 calls): 24 lines, within 12 of 833
    assert sum(c.calls for c in rated) == 480 and abs(sum(c.expected_calls for c in rated) - 833) <= 12
    assert all(r.input_tokens > p.input_tokens and p.expected_calls is None for p, r in zip(plain, rated))
    assert sum(c.seconds for c in rated) == pytest.approx(sum(c.expected_calls for c in rated) * gemma.seconds)
    text = estimate_text(rated)
    assert "w/ repairs" in text and f" {sum(c.expected_calls for c in rated)} " in text.splitlines()[-1]
    assert "w/ repairs" not in estimate_text(plain)  # no record, no claim


def test_a_rate_counts_first_asks_and_repairs_and_leaves_posts_and_cached_time_out(tmp_path: Path) -> None:
    import json

    from mam_bench.benchmark.rates import recorded_rates

    rows = [
        {"model": "m", "phase": "decision", "attempt": 0, "latency_s": 2.0, "cached": False},
        {"model": "m", "phase": "decision", "attempt": 1, "latency_s": 4.0, "cached": False},
        {"model": "m", "phase": "decision", "attempt": 0, "latency_s": 0.0, "cached": True},
        {"model": "m", "phase": "coordination", "attempt": 0, "latency_s": 9.0, "cached": False},
    ]
    (tmp_path / "pairs" / "a").mkdir(parents=True)
    (tmp_path / "pairs" / "a" / "llm_calls.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    rate = recorded_rates([tmp_path, tmp_path / "nothing-here"])["m"]
    assert (rate.asks, rate.repairs, rate.seconds) == (2, 1, 3.0)
    assert rate.repairs_per_ask == 0.5


@pytest.mark.parametrize("tier", ["quick", "full"])
def test_every_tier_is_a_valid_suite(tier: str) -> None:
    bench = load_benchmark(SHIPPED)
    entry = Entry(controller="random", tier=tier, seeds=tuple(parse_seeds(bench.tier(tier).seeds)))
    suite = build_suite(bench, entry)
    parse_suite(suite.model_dump(mode="json"))  # the runner's own validation, world by world
    n = len(bench.scenarios)
    assert len(suite.cases) == 2 * n  # random and the heuristic reference per scenario
    assert len(pairs_of(suite)) == 4 * n * len(entry.seeds)  # + stay and mimic


def test_roles_name_every_row_of_a_scenario(tiny: Path) -> None:
    bench = load_benchmark(tiny)
    entry = Entry(controller="heuristic", tier="quick", seeds=(0, 1))
    suite = build_suite(bench, entry)
    table = roles(bench, entry, suite)
    keys = {p.case.content_key()[:16] for p in pairs_of(suite)}
    assert set(table) == keys  # every pair has a role, no role lacks a pair
    for s in bench.scenarios:
        got = {i["role"] for items in table.values() for i in items if i["scenario"] == s.name}
        assert got == {"entry", "reference", "stay", "mimic"}
    # the heuristic under test is its own reference: one case, two roles
    both = [items for items in table.values() if {i["role"] for i in items} == {"entry", "reference"}]
    assert len(both) == len(bench.scenarios)


def test_an_llm_benchmark_plays_each_model(tiny: Path) -> None:
    bench = load_benchmark(tiny)
    entry = Entry(controller="llm", models=("fake:a", "openai:b"), tier="quick", seeds=(0,))
    suite = build_suite(bench, entry)
    llm = [c for c in suite.cases if c.controller_name == "llm"]
    assert sorted({c.model for c in llm}) == ["fake:a", "openai:b"] and len(llm) == 2 * len(bench.scenarios)
    assert all(c.controller_options == {"one_call": True} for c in llm)  # the tier's LLM options


def test_suite_models_axis_plays_each_llm_case_at_each_model() -> None:
    data = {
        "seeds": 1,
        "axes": {"models": ["fake:a", "fake:b"]},
        "cases": [
            {"name": "talk", "world": "voter", "controller": "llm", "model": "fake:x", "rounds": 2},
            {"name": "rule", "world": "voter", "controller": "heuristic", "rounds": 2},
        ],
    }
    suite = parse_suite(data)
    cases = suite.expanded_cases()
    assert [(c.name, c.model) for c in cases] == [("talk-fake:a", "fake:a"), ("talk-fake:b", "fake:b"), ("rule", None)]
    with pytest.raises(ConfigError, match="axes.models"):
        parse_suite({**data, "axes": {"models": ["nope"]}})


def test_seed_ranges() -> None:
    assert parse_seeds("3-5") == [3, 4, 5] and parse_seeds("1,4,7") == [1, 4, 7] and parse_seeds("2") == [2]
    for bad in ("5-3", "a", "1,1", "-2"):
        with pytest.raises(ConfigError, match="seeds"):
            parse_seeds(bad)


def test_the_score_version_names_the_placebos_and_the_content(tiny: Path, tiny_v2: Path) -> None:
    v1, v2 = load_benchmark(tiny), load_benchmark(tiny_v2)
    assert (v1.score, v1.placebos(), v2.score) == ("v1", ("stay", "mimic"), "v2")
    assert v2.placebos() == ("stay", "mimic", "rule")
    same_but_v2 = v1.model_copy(update={"score": "v2"})
    assert definition_hash(same_but_v2) != definition_hash(v1)  # a v2 folder never compares with a v1 one
    entry = Entry(controller="random", tier="quick", seeds=(0, 1, 2))
    suite = build_suite(v2, entry)
    assert suite.baselines == ("stay", "mimic", "rule")
    table = roles(v2, entry, suite)
    for s in v2.scenarios:
        got = {i["role"] for items in table.values() for i in items if i["scenario"] == s.name}
        assert got == {"entry", "reference", "stay", "mimic", "rule"}
