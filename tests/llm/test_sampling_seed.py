"""Each call carries its turn's sampling seed: a model that samples draws anew each turn and
attempt, and a re-run of the same turn draws the same."""

from __future__ import annotations

from mam_bench.records import read_jsonl
from mam_bench.steering.llm.call import turn_seed
from tests.llm.conftest import run_llm
from tests.support.openai_server import OpenAIServer, schelling_reply


def test_every_request_carries_its_turns_seed_and_the_row_records_it(tmp_path, api_key):
    with OpenAIServer(reply=schelling_reply) as srv:
        run_llm(tmp_path / "a", srv.base_url, influence=2, rounds=3, temperature=0.7)
    calls = read_jsonl(tmp_path / "a" / "llm_calls.jsonl")
    sent = [b["seed"] for b in srv.bodies]
    assert len(sent) == len(calls) >= 12
    assert sorted(sent) == sorted(c["seed"] for c in calls)
    for c in calls:
        assert c["seed"] == turn_seed(0, c["round"], c["actor_id"], c["phase"], c["attempt"])
    assert len(set(sent)) == len(sent)  # no two turns (round, agent, phase) share a draw

    # the same run again (no cache) sends the same seeds; another sampling_seed sends others
    with OpenAIServer(reply=schelling_reply) as again:
        run_llm(tmp_path / "b", again.base_url, influence=2, rounds=3, temperature=0.7)
    with OpenAIServer(reply=schelling_reply) as other:
        run_llm(tmp_path / "c", other.base_url, influence=2, rounds=3, temperature=0.7, sampling_seed=5)
    assert sorted(b["seed"] for b in again.bodies) == sorted(sent)
    assert not {b["seed"] for b in other.bodies} & set(sent)


def test_a_repair_draws_anew():
    assert turn_seed(0, 3, 7, "decision", 0) != turn_seed(0, 3, 7, "decision", 1)
    assert turn_seed(0, 3, 7, "decision", 0) == turn_seed(0, 3, 7, "decision", 0)
    assert 0 <= turn_seed(2**40, 10**6, 10**6, "one_call", 2) < 2**31
