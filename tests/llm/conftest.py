"""Shared fixtures: a recognisable API key in the environment and the loopback server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mam_bench.runner import PairSpec, run_pair
from tests.llm.scripted import server_reply
from tests.support.openai_server import OpenAIServer

KEY_ENV = "MAM_TEST_OPENAI_KEY"
KEY = "sk-CANARY-0f1e2d3c4b5a-never-write-me"


@pytest.fixture()
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, KEY)
    return KEY


@pytest.fixture()
def server(api_key: str):
    with OpenAIServer(reply=server_reply) as srv:
        yield srv


def llm_spec(base_url: str, cache: Path | str | None, rounds: int = 3, influence: int = 16, **opts: Any) -> PairSpec:
    options = {
        "model": "openai:scripted",
        "base_url": base_url,
        "api_key_env": KEY_ENV,
        "max_concurrency": 16,
        "backoff_base": 0.02,
        "backoff_max": 0.5,
        # far above a loaded machine's answer time: a test that wants a timeout makes the server
        # sleep past its own, shorter, per-test limit
        "timeout": 30.0,
        **opts,
    }
    options = {k: v for k, v in options.items() if v is not None}
    if cache is not None:
        options["cache"] = str(cache)
    return PairSpec.build(
        world="schelling", seed=22, controller="llm", rounds=rounds, influence=influence, controller_options=options
    )


def run_llm(out: Path, base_url: str, cache: Path | str | None = None, **kw: Any) -> dict[str, Any]:
    run_pair(llm_spec(base_url, cache if cache is not None else out / "llm_cache.sqlite", **kw), out)
    return json.loads((out / "result.json").read_text())


def result_text(out: Path) -> str:
    return (out / "result.json").read_text()
