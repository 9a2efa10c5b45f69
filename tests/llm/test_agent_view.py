"""The LLM agents see their controller only through an AgentView: its prompts, options, one call,
the scrubber, the counters, the model's token count and the run's records, never the controller
(its cache, its stack, its breaker)."""

from __future__ import annotations

import dataclasses

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.steering.llm import LLMController
from mam_bench.steering.llm.agent_view import AgentView


@pytest.mark.parametrize("agent", ["stateless", "session"])
def test_the_agents_hold_a_view_and_never_the_controller(agent: str) -> None:
    ctl = LLMController(
        SchellingWorld, "integrate", chat_model=FakeListChatModel(responses=["{}"]), model="fake:list", agent=agent
    )
    held = vars(ctl.agents)
    assert not any(value is ctl for value in held.values())
    view = ctl.agents.view
    assert isinstance(view, AgentView)
    assert {f.name for f in dataclasses.fields(view)} == {
        "prompts",
        "options",
        "ask",
        "scrub",
        "totals",
        "count_tokens",
        "records",
    }
    assert view.prompts is ctl.prompts and view.options is ctl.options and view.totals is ctl.totals
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.options = None  # type: ignore[misc]


def test_the_view_follows_the_records_attached_after_it_was_built() -> None:
    ctl = LLMController(SchellingWorld, "integrate", chat_model=FakeListChatModel(responses=["{}"]), model="fake:list")
    assert ctl.agents.view.records() is None
    records = object()
    ctl.attach_records(records)
    assert ctl.agents.view.records() is records
