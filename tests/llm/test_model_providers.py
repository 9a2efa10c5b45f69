"""A suite's "provider:model" is checked against the providers the registered chat-model builder
knows (LangChain's own table plus ours), not against a list kept in the core."""

from __future__ import annotations

import pytest
from langchain.chat_models import base

from mam_bench.errors import ConfigError
from mam_bench.experiment.suite import parse_suite
from mam_bench.registry import model_providers

CASE = {"world": "voter", "controller": "llm", "rounds": 2}


def test_the_registry_knows_langchains_providers_and_ours() -> None:
    known = model_providers()
    assert known is not None and {"openai", "local", "fake"} <= known
    assert set(base._BUILTIN_PROVIDERS) <= known


@pytest.mark.parametrize("model", ["openai:gpt-x", "local:gemma3-270m", "fake:echo"])
def test_a_known_provider_passes(model: str) -> None:
    assert parse_suite({"cases": [{**CASE, "model": model}], "seeds": 1}).cases[0].model == model


def test_a_misspelt_provider_names_the_field() -> None:
    with pytest.raises(ConfigError) as err:
        parse_suite({"cases": [{**CASE, "model": "opnai:gpt-x"}], "seeds": 1})
    assert err.value.field == "cases[0].model" and "opnai" in str(err.value)
