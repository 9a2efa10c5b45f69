"""A failed backend stops the run (exit 3) and no key is ever sent where it does not belong or written."""

from __future__ import annotations

import json

from mam_bench.cli import main
from mam_bench.records import read_jsonl
from tests.support.cli import llm_pair_args
from tests.support.openai_server import OpenAIServer, schelling_reply

KEY = "sk-reliability-key-5b7c9d1e3f"
OTHER = "sk-openai-default-key-2a4c6e8f0b"


def _auth(headers: dict) -> str:
    return next((v for k, v in headers.items() if k.lower() == "authorization"), "")


def _run(srv: OpenAIServer, out, *extra: str) -> int:
    return main(llm_pair_args(srv.base_url, out, *extra))


def test_a_401_stops_the_run_after_the_first_call(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RELIABILITY_KEY", KEY)
    with OpenAIServer(reply=schelling_reply, fault=lambda body, i: "401") as srv:
        assert _run(srv, tmp_path / "r", "--api-key-env", "RELIABILITY_KEY") == 3
        assert srv.received == 1
    err = capsys.readouterr().err
    assert "error: backend: the provider refused the key (HTTP 401)" in err and KEY not in err


def test_a_hung_server_is_cut_by_the_deadline(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RELIABILITY_KEY", KEY)
    with OpenAIServer(reply=schelling_reply, hold_after=0) as srv:
        # the deadline counts from the process start, so a short one is enough to hit the hung call
        code = _run(srv, tmp_path / "r", "--api-key-env", "RELIABILITY_KEY", "--deadline", "2")
        srv.release.set()
    assert code == 3
    assert "--deadline of 2s passed" in capsys.readouterr().err
    assert not (tmp_path / "r" / "result.json").exists()


def test_openai_key_goes_to_a_custom_endpoint_only_when_named(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OTHER)
    with OpenAIServer(reply=schelling_reply) as srv:
        assert _run(srv, tmp_path / "r") == 0
        assert srv.headers and all(OTHER not in _auth(h) for h in srv.headers)
    monkeypatch.setenv("RELIABILITY_KEY", KEY)
    with OpenAIServer(reply=schelling_reply) as srv:
        assert _run(srv, tmp_path / "s", "--api-key-env", "RELIABILITY_KEY") == 0
        assert srv.headers and all(_auth(h) == f"Bearer {KEY}" for h in srv.headers)


def test_an_echoed_key_reaches_no_record_and_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RELIABILITY_KEY", KEY)
    with OpenAIServer(reply=schelling_reply, fault=lambda body, i: "echo_auth") as srv:
        # no echoed answer parses, so the run is allowed to be all policy errors (else it is invalid, exit 3)
        assert _run(srv, tmp_path / "r", "--api-key-env", "RELIABILITY_KEY", "--max-policy-errors", "1") == 0
        assert srv.received > 0
    files = [p for p in (tmp_path / "r").iterdir() if p.is_file()]
    assert {"llm_cache.sqlite", "decisions.jsonl", "llm_calls.jsonl"} <= {p.name for p in files}
    for p in files:
        assert KEY.encode() not in p.read_bytes(), p.name
    raws = [row["raw"] for row in read_jsonl(tmp_path / "r" / "decisions.jsonl") if row.get("raw")]
    assert raws and all("[key]" in raw for raw in raws)


def test_the_key_itself_given_as_the_variable_name_is_not_printed(tmp_path, capsys):
    assert (
        main(
            [
                "run",
                "schelling",
                "--policy",
                "llm",
                "--model",
                "openai:m",
                "--api-key-env",
                KEY,
                "--out",
                str(tmp_path / "r"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("error: api_key_env:") and KEY not in err
    assert not (tmp_path / "r").exists()


def test_negative_token_counts_are_rejected(tmp_path, monkeypatch):
    monkeypatch.setenv("RELIABILITY_KEY", KEY)

    class Negative(OpenAIServer):
        def _send(self, h, status, payload, headers=None, length=None):
            if status == 200 and b'"usage"' in payload:
                data = json.loads(payload)
                data["usage"]["prompt_tokens"] = -1000
                payload = json.dumps(data).encode()
            super()._send(h, status, payload, headers, length)

    with Negative(reply=schelling_reply) as srv:
        # every decision fails here, so the run is allowed to be all policy errors (else it is invalid, exit 3);
        # one round: two rounds of nothing but failed calls would stop the run (exit 3) before result.json
        args = llm_pair_args(srv.base_url, tmp_path / "r", "--api-key-env", "RELIABILITY_KEY", rounds=1)
        assert main([*args, "--max-policy-errors", "1"]) == 0
    calls = read_jsonl(tmp_path / "r" / "llm_calls.jsonl")
    assert calls and all("invalid token count input_tokens=-1000" in c["error"] for c in calls)
    result = json.loads((tmp_path / "r" / "result.json").read_text())
    assert result["llm"]["input_tokens"] == 0 and result["llm"]["calls"] == 0
