"""A person at the controls, without a browser: the session waits for choices made from another
thread (as the page makes them), refuses an illegal one with the world's reason, records the
run like any controller, replays from its folder and resumes after a stop."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from mam_bench.dashboards.human_session import HumanSession, check_out
from mam_bench.errors import ConfigError
from mam_bench.records import read_jsonl
from mam_bench.runner import PairSpec, run_pair
from mam_bench.steering.human import LOG

WAIT = 120.0  # a bound on a hung session, not a speed check


def spec(**kw) -> PairSpec:
    return PairSpec.build(**{"world": "schelling", "seed": 3, "controller": "human", "influence": 2, "rounds": 3, **kw})


def next_turn(session: HumanSession, after: int = -1):
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        turn = session.human.turn
        if turn is not None and turn.round > after:
            return turn
        if session.finished:
            return None
        time.sleep(0.01)
    raise AssertionError("no turn opened")


def playing(session: HumanSession) -> threading.Thread:
    errors: list[BaseException] = []

    def loop() -> None:
        try:
            while not session.finished:
                session.step()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            errors.append(exc)

    t = threading.Thread(target=loop, daemon=True)
    t.errors = errors  # type: ignore[attr-defined]
    t.start()
    return t


def occupied(turn, actor: int) -> tuple[int, int]:
    obs = turn.request(actor).observation
    return next((r, c) for r in range(obs.size) for c in range(obs.size) if obs.group_at(r, c) not in (-1, None))


def play_rounds(session: HumanSession, rounds: int, start: int = -1) -> list[str]:
    refusals, r = [], start
    for _ in range(rounds):
        turn = next_turn(session, r)
        r = turn.round
        first, second = turn.ids
        refusals.append(session.human.choose(first, dict(zip(("row", "col"), occupied(turn, first)))))
        assert first not in turn.actions  # refused: nothing taken
        session.human.write(first, f"round {r}: I move")
        vacancy = turn.request(first).observation.vacancies()[r]
        assert session.human.choose(first, {"row": vacancy[0], "col": vacancy[1]}) is None
        assert session.human.stay(second) is None
    return refusals


def test_a_played_session_is_recorded_and_replays_to_the_same_records(tmp_path: Path) -> None:
    out = tmp_path / "human"
    session = HumanSession(spec(), out)
    loop = playing(session)
    refusals = play_rounds(session, 3)
    loop.join(WAIT)
    assert not loop.errors, loop.errors
    assert all(r and "occupied" in r for r in refusals), refusals
    result = json.loads((out / "result.json").read_text())
    assert result["controller"]["name"] == "human"
    assert set(result["baselines"]) == {"stay", "mimic"}
    decisions = read_jsonl(out / "decisions.jsonl")
    assert len(decisions) == 6
    assert [d["post"] for d in decisions if d["post"]] == [f"round {r}: I move" for r in range(3)]
    log = read_jsonl(out / LOG)
    assert len(log) == 6 and all(isinstance(row["seconds"], float) for row in log)
    assert {row["how"] for row in log} == {"pick", "stay"}

    again = tmp_path / "replayed"
    replay = spec().model_copy(update={"controller": "replay", "controller_options": {"replay": str(out)}})
    run_pair(replay, again)
    strip = lambda rows: [{k: v for k, v in r.items() if k != "_chain"} for r in rows]  # noqa: E731
    assert strip(read_jsonl(again / "decisions.jsonl")) == strip(decisions)
    assert strip(read_jsonl(again / "treatment.jsonl")) == strip(read_jsonl(out / "treatment.jsonl"))


def test_a_stopped_session_resumes_from_its_folder(tmp_path: Path) -> None:
    out = tmp_path / "human"
    first = HumanSession(spec(), out)
    loop = playing(first)
    play_rounds(first, 1)
    next_turn(first, 0)  # round 1 is asked: round 0 is in the log
    first.close()  # the page is gone
    loop.join(WAIT)
    assert len(read_jsonl(out / LOG)) == 2

    second = HumanSession(spec(), out)
    loop = playing(second)
    turn = next_turn(second)
    assert turn.round == 1  # round 0 came from the log, not from the person
    play_rounds(second, 2, start=0)
    loop.join(WAIT)
    assert not loop.errors, loop.errors
    assert len(read_jsonl(out / "decisions.jsonl")) == 6
    assert json.loads((out / "result.json").read_text())["treatment"]["rounds"] == 3


def test_the_time_limit_makes_the_missing_agents_stay(tmp_path: Path) -> None:
    session = HumanSession(spec(rounds=1, controller_options={"time_limit": 3.0}), tmp_path / "h")
    loop = playing(session)
    turn = next_turn(session)
    assert session.human.stay(turn.ids[0]) is None
    loop.join(WAIT)
    assert not loop.errors, loop.errors
    log = read_jsonl(tmp_path / "h" / LOG)
    assert [row["how"] for row in log] == ["stay", "time limit"]
    assert log[1]["action"] == {"stay": True}


def test_a_folder_of_something_else_or_of_another_pair_is_refused(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="files of something else"):
        check_out(tmp_path / "other")
    session = HumanSession(spec(), tmp_path / "h")
    session.close()
    with pytest.raises(ConfigError, match="another pair"):
        HumanSession(spec().model_copy(update={"seed": 4}), tmp_path / "h")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--out", "x"], "error: out: only --controller human takes it"),
        (["--policy", "human", "--time-limit", "0"], "error: time_limit: expected a positive number"),
        (["--policy", "human", "--rounds", "0"], "error: rounds: expected 1 to 100000 rounds"),
        (["--policy", "people"], "error: controller: unknown controller 'people'"),
    ],
)
def test_the_dashboard_refuses_bad_seat_flags_before_serving(args, said, tmp_path, capsys, monkeypatch) -> None:
    from mam_bench import cli

    monkeypatch.chdir(tmp_path)
    assert cli.main(["dashboard", "schelling", *args]) == 2
    assert said in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing touched


def test_run_refuses_the_human_outside_the_dashboard(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="human plays in the dashboard"):
        run_pair(spec(), tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_a_per_turn_world_asks_the_posts_first_then_each_agent_at_its_turn(tmp_path: Path) -> None:
    crafting = PairSpec.build(
        world="crafting", seed=0, controller="human", influence=2, rounds=1, params={"protocol": "round_robin"}
    )
    session = HumanSession(crafting, tmp_path / "h")
    assert session.human.per_turn
    loop = playing(session)
    posts = next_turn(session)
    assert not posts.want_action and posts.want_post and len(posts.ids) == 2
    assert session.human.stay(posts.ids[0]) == "not your turn to act"  # a posts-only turn takes no action
    session.human.write(posts.ids[0], "I gather wood")
    session.human.send()
    acted = []
    for _ in range(2):  # then one agent at a time, each from its own fresh observation
        end = time.monotonic() + WAIT
        while (turn := session.human.turn) is None or not turn.want_action or turn.ids[0] in acted:
            assert time.monotonic() < end, "no turn opened"
            time.sleep(0.01)
        assert len(turn.ids) == 1
        assert session.human.same_as_last(turn.ids[0]) == "no earlier action to repeat"
        assert session.human.choose(turn.ids[0], {"tool": "sleep"}) is None
        acted.append(turn.ids[0])
    loop.join(WAIT)
    assert not loop.errors, loop.errors
    assert sorted(acted) == sorted(posts.ids)
    decisions = read_jsonl(tmp_path / "h" / "decisions.jsonl")
    assert {d["actor_id"]: d["post"] for d in decisions} == {posts.ids[0]: "I gather wood", posts.ids[1]: None}
    assert all(d["decision"] == {"tool": "sleep"} for d in decisions)


def test_records_of_a_user_model_are_written_while_other_threads_draw_from_random(tmp_path: Path) -> None:
    """In a dashboard server other threads draw from `random` (websockets' keepalive); the records'
    replay runs in a process of its own, so it checks the user model's draws without counting
    theirs (in the server's process it read them as the model's: IsolationError)."""
    import random

    stop = threading.Event()

    def drawing() -> None:
        while not stop.is_set():
            random.random()

    noise = threading.Thread(target=drawing, daemon=True)
    noise.start()
    try:
        session = HumanSession(spec(world="civil_violence", seed=1000, rounds=2), tmp_path / "human")
        loop = playing(session)
        r = -1
        while (turn := next_turn(session, r)) is not None:
            r = turn.round
            for aid in turn.ids:
                assert session.human.stay(aid) is None
            if r == 1:
                break
        loop.join(WAIT)
    finally:
        stop.set()
    assert loop.errors == []  # type: ignore[attr-defined]
    result = json.loads((tmp_path / "human" / "result.json").read_text())
    assert result["treatment"]["rounds"] == 2 and set(result["baselines"]) == {"stay", "mimic"}
