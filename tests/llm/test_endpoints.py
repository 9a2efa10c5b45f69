"""Real endpoints: structured-output fallback (llama.cpp refuses json_schema), deterministic errors
are not retried, the sampling flags reach the wire and the record, a hung or dead endpoint stops
the run, bad URLs and model names are refused before any call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mam_bench.errors import BackendFailed
from mam_bench.steering.llm.options import LLMOptions
from tests.llm.conftest import KEY_ENV, run_llm
from tests.llm.scripted import server_reply
from tests.support.cli import cli_in_process, llm_pair_args
from tests.support.openai_server import OpenAIServer


def calls(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "llm_calls.jsonl").read_text().splitlines()]


def formats(srv: OpenAIServer) -> list[str | None]:
    return [(b.get("response_format") or {}).get("type") for b in srv.bodies]


def test_llama_cpp_refusal_falls_back_once_and_the_pair_is_valid(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply, reject_json_schema=True) as srv:
        res = run_llm(tmp_path / "r", srv.base_url, rounds=3)
    assert res["validity"]["status"] == "valid"
    # one refused request for the whole run: the first decision call probes alone, the rest follow
    assert len(srv.refused) == 1
    sent = formats(srv)
    first = sent.index("json_schema")
    assert set(sent[first + 1 :]) <= {None, "json_object"} and "json_object" in sent[first + 1 :]
    rows = [r for r in calls(tmp_path / "r") if r["phase"] == "decision"]
    # llama-cpp-python's own form: json_object carrying the schema, which it decodes under
    assert rows and {r["format"] for r in rows} == {"json_object_schema"} and not any(r["error"] for r in rows)
    assert all(b["response_format"].get("schema") for b in srv.bodies[first + 1 :] if b.get("response_format"))
    assert sum(r["requests"] for r in rows) == len(rows) + 1  # the refused request is counted
    assert res["controller"]["structured"] == "auto"


def test_auto_steps_down_to_plain_text_when_json_object_is_refused_too(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply, reject_json_schema=True, reject_json_object=True) as srv:
        res = run_llm(tmp_path / "r", srv.base_url, rounds=2)
    assert res["validity"]["status"] == "valid"
    refused = [(b["response_format"]["type"], "schema" in b["response_format"]) for b in srv.refused]
    assert refused == [("json_schema", False), ("json_object", True), ("json_object", False)]
    rows = [r for r in calls(tmp_path / "r") if r["phase"] == "decision"]
    assert {r["format"] for r in rows} == {"none"}


def test_an_explicit_json_schema_is_refused_once_per_call_never_retried(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply, reject_json_schema=True) as srv:
        # every decision fails: the breaker (25 in a row) is off, so the run plays out to its records
        res = run_llm(tmp_path / "r", srv.base_url, rounds=2, structured="json_schema", repair=0, unusable_in_a_row=0)
    rows = [r for r in calls(tmp_path / "r") if r["phase"] == "decision"]
    assert rows and all(r["error"] and r["requests"] == 1 for r in rows)  # deterministic: no retry
    assert len(srv.refused) == len(rows)
    assert res["validity"]["status"] == "invalid"


def test_a_deterministic_400_is_not_retried(tmp_path: Path, api_key: str) -> None:
    def bad_request(body: dict, index: int) -> str | None:
        return "400" if "Coordination phase" not in json.dumps(body) else None

    with OpenAIServer(reply=server_reply, fault=bad_request) as srv:
        run_llm(tmp_path / "r", srv.base_url, rounds=1, repair=0, max_retries=6)
    rows = [r for r in calls(tmp_path / "r") if r["phase"] == "decision"]
    assert rows and all(r["requests"] == 1 and "400" in r["error"] for r in rows)


def test_sampling_flags_reach_the_wire_and_the_record(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply) as srv:
        res = run_llm(tmp_path / "a", srv.base_url, rounds=1, temperature=1.0, top_p=0.5, structured="none")
    assert {b.get("max_tokens") or b.get("max_completion_tokens") for b in srv.bodies} == {1024}
    assert {b.get("top_p") for b in srv.bodies} == {0.5} and {b.get("temperature") for b in srv.bodies} == {1.0}
    assert set(formats(srv)) == {None}
    c = res["controller"]
    assert (c["max_tokens"], c["top_p"], c["temperature"], c["structured"]) == (1024, 0.5, 1.0, "none")
    with OpenAIServer(reply=server_reply) as srv:
        res = run_llm(tmp_path / "b", srv.base_url, rounds=1, max_tokens=77)
    assert {b.get("max_tokens") or b.get("max_completion_tokens") for b in srv.bodies} == {77}
    assert res["controller"]["max_tokens"] == 77 and KEY_ENV not in json.dumps(res["controller"])


def test_a_hung_endpoint_stops_the_run_naming_the_stall_deadline(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply, hang=True) as srv:
        with pytest.raises(BackendFailed, match="--stall-timeout"):
            run_llm(tmp_path / "r", srv.base_url, rounds=20, timeout=0.3, stall_timeout=1.0, backoff_max=0.1)
    assert srv.received >= 1 and srv.answered == 0
    assert (tmp_path / "r" / "spec.json").is_file()  # records kept


def test_default_limits_end_a_hung_run_within_ten_minutes() -> None:
    """With default flags the stall clock, the per-call timeout and the longest backoff bound the
    time a never-answering endpoint can hold a run (the clock is checked at every attempt)."""
    o = LLMOptions(model="openai:m")
    assert o.stall + o.call_timeout + o.backoff_max < 600


def test_a_local_model_waits_for_a_slow_answer_instead_of_queueing_a_retry() -> None:
    """A timed-out wait cannot stop llama.cpp's computation (it holds the model's lock), so the
    in-process model keeps long clocks unless the flags say otherwise."""
    local = LLMOptions(model="local:gemma3-270m")
    assert local.call_timeout >= 1800 and local.stall >= local.call_timeout
    assert LLMOptions(model="local:gemma3-270m", timeout=5, stall_timeout=9).call_timeout == 5
    assert LLMOptions(model="local:gemma3-270m", timeout=5, stall_timeout=9).stall == 9


def test_a_hung_endpoint_via_the_cli_exits_3(tmp_path: Path, api_key: str, capsys: pytest.CaptureFixture) -> None:
    with OpenAIServer(reply=server_reply, hang=True) as srv:
        code, err = cli_in_process(
            capsys,
            *llm_pair_args(srv.base_url, tmp_path / "r", "--timeout", "0.3", "--stall-timeout", "1", rounds=5),
        )
    assert code == 3 and "--stall-timeout" in err


def test_two_rounds_of_failed_calls_stop_the_run(tmp_path: Path, api_key: str) -> None:
    with OpenAIServer(reply=server_reply, fault=lambda body, i: "500") as srv:
        with pytest.raises(BackendFailed, match="every LLM call of rounds 0 and 1 failed"):
            run_llm(tmp_path / "r", srv.base_url, rounds=20, max_retries=1, influence=4)
    rows = calls(tmp_path / "r")
    assert rows and all(r["error"] for r in rows) and {r["round"] for r in rows} == {0, 1}


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--base-url", "notaurl"], "base_url"),
        (["--base-url", "ftp://example.org/v1"], "base_url"),
        (["--model", "openai:"], "model"),
        (["--max-tokens", "0"], "max_tokens"),
        (["--top-p", "1.5"], "top_p"),
        (["--stall-timeout", "0"], "stall_timeout"),
    ],
)
def test_bad_llm_flags_are_refused_before_any_call(
    tmp_path: Path, api_key: str, capsys: pytest.CaptureFixture, flags: list[str], field: str
) -> None:
    with OpenAIServer(reply=server_reply) as srv:
        args = llm_pair_args(srv.base_url, tmp_path / "r", "--api-key-env", KEY_ENV)
        for flag, value in zip(flags[::2], flags[1::2]):
            if flag in args:
                args[args.index(flag) + 1] = value
            else:
                args += [flag, value]
        code, err = cli_in_process(capsys, *args)
    assert code == 2 and err.startswith(f"error: {field}:"), err
    assert srv.received == 0 and not (tmp_path / "r").exists()


def test_a_suite_case_takes_the_same_options(tmp_path: Path, api_key: str) -> None:
    from mam_bench.errors import ConfigError
    from mam_bench.experiment.suite import parse_suite
    from mam_bench.runner import check_suite_controllers, run_pair

    def suite(base_url: str, **opts: object) -> object:
        options = {"base_url": base_url, "api_key_env": KEY_ENV, **opts}
        case = {"world": "schelling", "model": "openai:m", "rounds": 1, "influence": 2, "controller_options": options}
        return parse_suite({"name": "s", "seeds": 1, "cases": [case]})

    with OpenAIServer(reply=server_reply) as srv:
        good = suite(srv.base_url, structured="json_object", max_tokens=50, top_p=0.9, temperature=1.0)
        check_suite_controllers(good)
        run_pair(good.cases[0].pair_spec(22), tmp_path / "p")
        with pytest.raises(ConfigError, match=r"cases\[0\]\.controller_options\.structured"):
            check_suite_controllers(suite(srv.base_url, structured="xml"))
        with pytest.raises(ConfigError, match=r"cases\[0\]\.controller_options\.base_url"):
            check_suite_controllers(suite("notaurl"))
    sent = [b for b in srv.bodies if b.get("response_format")]
    assert sent and {b["response_format"]["type"] for b in sent} == {"json_object"}
    assert {(b.get("max_tokens") or b.get("max_completion_tokens"), b.get("top_p")) for b in srv.bodies} == {(50, 0.9)}


def test_the_stall_clock_pauses_between_calls_and_only_an_answer_resets_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from mam_bench.steering.llm import transport

    now = [1000.0]
    monkeypatch.setattr(transport.time, "monotonic", lambda: now[0])
    live = transport.Liveness()
    live.begin()
    now[0] += 100.0  # 100 s under way without an answer, then the call fails
    live.end()
    now[0] += 50.0  # 50 s with nothing under way (the world stepping)
    live.begin()  # the next call does not restart the clock, and the pause does not count
    assert now[0] - live.last == 100.0
    now[0] += 10.0
    live.answered()
    assert now[0] - live.last == 0.0
