"""What an LLM controller's agents use of it, and nothing more: its prompts and options, one call
through its stack, its scrubber, its counters, the model's token counter and the run's records.

The controller builds it once (`LLMController.agent_view`) and hands it to its agents, so an agent
cannot reach the cache, the stack's wrappers or the breaker, and what it may do is read here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from mam_bench.pricing import Totals
from mam_bench.prompts import WorldPrompts
from mam_bench.protocol import Request
from mam_bench.steering.llm.options import LLMOptions

#: one call through the controller's stack: (request, phase, messages, attempt, answer schema)
#: -> (the answer's text, None) or (None, why it failed)
Ask = Callable[[Request, str, list[BaseMessage], int, dict[str, Any] | None], Awaitable[tuple[str | None, str | None]]]


@dataclass(frozen=True)
class AgentView:
    """An LLM controller as its agents see it."""

    #: the world's prompts: system and user text, answer schemas, parsing, menus, the board
    prompts: WorldPrompts
    options: LLMOptions
    ask: Ask
    #: the run's secrets out of a text before it is kept, quoted or posted
    scrub: Callable[[str], str]
    #: the run's counters; an agent counts its policy errors and repairs
    totals: Totals
    #: the model's own token count (a local model's tokenizer), None where it has none
    count_tokens: Callable[[str], int] | None
    #: the run's records once attached (None before): where an agent's session rows go
    records: Callable[[], Any]
