"""A person's benchmark without a browser: where each pair of the smoke tier stands, the keys
that play a whole round, what an unfinished pair keeps for its rerun, and the refusals."""

from __future__ import annotations

from pathlib import Path

from mam_bench.benchmark.definition import Entry, build_suite, load_benchmark
from mam_bench.dashboards.human_benchmark import progress_of, progress_text
from mam_bench.dashboards.human_panel import for_all
from mam_bench.dashboards.human_session import HumanSession
from mam_bench.experiment.run_suite import clear_leftovers
from mam_bench.experiment.suite import pairs_of
from mam_bench.records import read_jsonl
from mam_bench.steering.human import LOG
from tests.dashboards.test_human_session import next_turn, playing, spec
from tests.support.cli import cli_in_process

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "suites" / "benchmark-v3.yaml"


def test_every_pair_of_the_smoke_tier_says_where_it_stands() -> None:
    bench = load_benchmark(V3)
    entry = Entry(controller="human", tier="smoke", seeds=(1000, 1001))
    suite = build_suite(bench, entry)
    pairs = pairs_of(suite)
    progress = progress_of(bench, entry, suite)
    assert len(pairs) == len(bench.scenarios) * 2 == 52
    fifth = progress[pairs[4].pair_id]
    third = bench.scenarios[2]
    assert (fifth["scenario"], fifth["seed"], fifth["pair_index"]) == (third.name, 1000, 5)
    assert progress_text({"progress": fifth}).startswith(f"scenario 3 of 26, seed 1000: {third.name}")
    last = progress[pairs[-1].pair_id]
    assert (last["scenario_index"], last["seed_index"], last["pair_index"]) == (26, 2, 52)


def test_one_key_plays_a_round_for_every_agent_left(tmp_path: Path) -> None:
    session = HumanSession(spec(), tmp_path / "h")
    loop = playing(session)
    try:
        turn = next_turn(session)
        first = turn.ids[0]
        obs = turn.request(first).observation
        cells = [(r, c) for r in range(obs.size) for c in range(obs.size)]
        assert any(session.human.choose(first, {"row": r, "col": c}) is None for r, c in cells)  # an empty cell
        for_all(session.human, turn, "stay")  # the others stay: the round is played
        turn = next_turn(session, 0)
        for_all(session.human, turn, "same")  # each repeats its own last action (or stays)
        turn = next_turn(session, 1)
        for_all(session.human, turn, "stay")
        loop.join(120)
    finally:
        session.close()
    assert not loop.errors and session.finished
    rows = read_jsonl(tmp_path / "h" / LOG)
    hows = [(r["round"], r["actor_id"], r["how"]) for r in rows]
    others = turn.ids[1:]
    assert hows[: len(turn.ids)] == [(0, first, "pick"), *((0, a, "stay") for a in others)]
    assert {h for r, a, h in hows if r == 1 and a in others} == {"same"}  # the null action repeated
    # the mover repeats its move where that is still legal, else stays
    assert next(h for r, a, h in hows if r == 1 and a == first) in ("same", "stay")
    assert {h for r, a, h in hows if r == 2} == {"stay"}


def test_an_unfinished_pair_keeps_the_persons_rounds_for_its_rerun(tmp_path: Path) -> None:
    for name in ("human.jsonl", "human_spec.json", "llm_cache.sqlite", "treatment.jsonl", "spec.json"):
        (tmp_path / name).write_text("x")
    clear_leftovers(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["human.jsonl", "human_spec.json", "llm_cache.sqlite"]


def test_a_person_plays_one_pair_at_a_time_and_only_human_takes_a_port(tmp_path: Path, capsys) -> None:
    smoke = ("--definition", str(V3), "--tier", "smoke")
    code, err = cli_in_process(
        capsys, "benchmark", "--policy", "human", *smoke, "--jobs", "2", "--out", str(tmp_path / "a")
    )
    assert code == 2 and "error: jobs: a person plays one pair at a time here" in err
    code, err = cli_in_process(
        capsys, "benchmark", "--policy", "random", *smoke, "--port", "9000", "--out", str(tmp_path / "b")
    )
    assert code == 2 and "error: port: only --controller human takes it" in err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
