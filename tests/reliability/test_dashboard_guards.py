"""The dashboard's guards without a browser: allow-listed keys, loopback endpoints, the replay folder."""

from __future__ import annotations

import pytest

from mam_bench.dashboards.config import DashConfig, to_spec
from mam_bench.dashboards.security import ENV_ALLOW_KEYS, ENV_ALLOW_URLS, ENV_REPLAY_DIR, origin_allowed
from mam_bench.errors import ConfigError

LLM = dict(world="schelling", controller="llm", model="openai:gpt-4o-mini")


def test_key_variables_come_only_from_the_allow_list(monkeypatch):
    monkeypatch.delenv(ENV_ALLOW_KEYS, raising=False)
    with pytest.raises(ConfigError, match="api_key_env: this key variable is not allowed"):
        to_spec(DashConfig(**LLM, base_url="http://127.0.0.1:9/v1", api_key_env="SECRET_TOKEN"), "llm")
    with pytest.raises(ConfigError, match="api_key_env: name an allowed key variable"):
        to_spec(DashConfig(**LLM), "llm")  # the SDK would read OPENAI_API_KEY from the server
    monkeypatch.setenv(ENV_ALLOW_KEYS, "SECRET_TOKEN")
    spec = to_spec(DashConfig(**LLM, api_key_env="SECRET_TOKEN"), "llm")
    assert spec.controller_options["api_key_env"] == "SECRET_TOKEN"


@pytest.mark.parametrize(
    "url",
    [
        "http://evil.example/v1",
        "http://192.0.2.1:8000/v1",
        "file:///etc/passwd",
        "http://127.0.0.1.evil.example/v1",
        "ftp://127.0.0.1/v1",
    ],
)
def test_base_urls_are_loopback_or_allow_listed(monkeypatch, url):
    monkeypatch.delenv(ENV_ALLOW_URLS, raising=False)
    with pytest.raises(ConfigError, match="base_url"):
        to_spec(DashConfig(**LLM, base_url=url), "llm")


def test_an_allow_listed_endpoint_and_loopback_pass(monkeypatch):
    monkeypatch.setenv(ENV_ALLOW_URLS, "https://openrouter.ai/api/v1")
    for url in ("https://openrouter.ai/api/v1", "http://localhost:11434/v1", "http://[::1]:8000/v1"):
        assert to_spec(DashConfig(**LLM, base_url=url), "llm").controller_options["base_url"] == url


def test_replays_only_from_the_replay_directory(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_REPLAY_DIR, str(tmp_path / "runs"))
    for bad in ("/etc", "../outside", str(tmp_path)):
        with pytest.raises(ConfigError, match="replay: only runs under the replay directory"):
            to_spec(DashConfig(world="schelling", controller="replay", replay=bad), "replay")
    spec = to_spec(DashConfig(world="schelling", controller="replay", replay="a-run"), "replay")
    assert spec.controller_options["replay"] == str(tmp_path / "runs" / "a-run")


@pytest.mark.parametrize(
    "origin, ok",
    [
        (None, True),
        ("http://127.0.0.1:8765", True),
        ("http://localhost:8765", False),
        ("http://evil.example", False),
        ("null", False),
        ("http://127.0.0.1:8766", False),
    ],
)
def test_websocket_origin(origin, ok):
    headers = {"host": "127.0.0.1:8765"}
    if origin is not None:
        headers["origin"] = origin
    assert origin_allowed(headers) is ok
