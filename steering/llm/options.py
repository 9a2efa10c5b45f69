"""Settings of the LLM controller, validated before any call (a typo is an error, not a default)."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

#: answer tokens per call unless --max-tokens says otherwise: a decision is a JSON object of a
#: few dozen tokens and a post at most `post_chars` (600) characters, about 150 tokens, so 1024
#: leaves room for a model that thinks aloud first, yet one runaway answer (the 270M model once
#: wrote 7,724 tokens) costs at most 1024 tokens of time and money
DEFAULT_MAX_TOKENS = 1024
#: the in-process gemma model keeps its own, smaller cap (it answers short JSON; 96 was measured)
LOCAL_MAX_TOKENS = 96
#: seconds without a single answered call after which the run stops (exit 3); with the 60 s
#: per-call timeout, a hung endpoint ends a default run in at most about 6 minutes
DEFAULT_STALL = 300.0
DEFAULT_TIMEOUT = 60.0
#: the in-process model's per-call timeout and stall clock: it is no network, so a slow answer on a
#: loaded machine is slow, not lost; and a timed-out wait leaves llama.cpp computing under its lock,
#: so a retry only queues a second copy of the same prompt (measured: 300 s stalls, whole pairs lost)
LOCAL_TIMEOUT = 3600.0

Structured = Literal["auto", "json_schema", "json_object_schema", "json_object", "none"]


class LLMOptions(BaseModel):
    """What the CLI's LLM flags (and PairSpec.controller_options) may set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(..., min_length=1, description="PROVIDER:MODEL for init_chat_model, or local:gemma3-270m")
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float | None = Field(None, ge=0.0, le=2.0, allow_inf_nan=False)
    top_p: float | None = Field(None, gt=0.0, le=1.0, allow_inf_nan=False)
    max_tokens: int | None = Field(None, ge=1, le=1_000_000, description="answer cap; None: the default cap")
    max_concurrency: int = Field(8, ge=1, le=256)
    cache: str | None = None
    one_call: bool = False
    price_table: str | dict[str, dict[str, float]] | None = None
    #: seconds per call; None: DEFAULT_TIMEOUT, or LOCAL_TIMEOUT for a local model
    timeout: float | None = Field(None, gt=0, le=3600, allow_inf_nan=False)
    deadline: float | None = Field(
        None,
        gt=0,
        le=7 * 86400,
        allow_inf_nan=False,
        description="seconds for the whole run; past it the run stops (exit 3)",
    )
    max_cost: float | None = Field(
        None,
        ge=0,
        allow_inf_nan=False,
        description="USD for the run's calls; checked before each call against its estimated cost",
    )
    unusable_in_a_row: int = Field(
        25,
        ge=0,
        le=1_000_000,
        description="policy_errors in a row that stop the run (exit 3): an endpoint that answers but never "
        "playably; 0: never (a run whose --max-policy-errors is 1 accepts any number)",
    )
    stall_timeout: float | None = Field(
        None,
        gt=0,
        le=7 * 86400,
        allow_inf_nan=False,
        description="seconds without any answered call; past it the run stops (exit 3); "
        "None: DEFAULT_STALL, or LOCAL_TIMEOUT for a local model",
    )
    max_retries: int = Field(6, ge=0, le=100)
    retry_budget: float = Field(300.0, gt=0, description="seconds of retrying per call, all attempts")
    backoff_base: float = Field(0.5, ge=0)
    backoff_max: float = Field(30.0, ge=0)
    repair: int = Field(1, ge=0, le=2, description="repair retries quoting the validation error")
    post_chars: int = Field(600, ge=1, description="asked-for post length (the board caps at 4000)")
    message_cap: int = Field(4000, ge=1, description="a one-call message longer than this is rejected")
    #: auto: json_schema, and on a refusal that names response_format json_object with the schema
    #: (llama-cpp-python's server), then json_object, then plain text
    structured: Structured = "auto"
    #: full: the world's whole prompt; menu: a short one ending in a numbered menu of the legal
    #: actions, shuffled per request by menu_seed; compact: the menu with the rules in a line and
    #: at most 8 options unless menu_cap says (None: compact for local models, else full)
    prompt_style: Literal["full", "menu", "compact"] | None = None
    menu_seed: int = Field(0, ge=0)
    #: each call's sampling seed is drawn from this, the round, the agent, the phase and the
    #: attempt: a model sampling at temperature > 0 draws anew each turn, and the same turn draws
    #: the same in a re-run (sent to llama.cpp and OpenAI-compatible endpoints; recorded per call)
    sampling_seed: int = Field(0, ge=0)
    #: at most this many menu lines (the world's null action and a shuffled draw of the rest);
    #: None: every legal action. A short prompt for a small model on a large action set
    menu_cap: int | None = Field(None, ge=2)
    #: stateless: a fresh prompt each call; session: one conversation per agent over the run,
    #: with a private notebook and tool turns (session.py)
    agent: Literal["stateless", "session"] = "stateless"
    turn_requests: int = Field(4, ge=1, le=16, description="answers (tool calls) per session turn")
    notebook_chars: int = Field(2000, ge=100, le=20000)
    context_tokens: int | None = Field(
        None,
        ge=500,
        description="a session past this many tokens (the local model's own, else 4 characters each) is compacted",
    )

    @property
    def call_timeout(self) -> float:
        if self.timeout is not None:
            return self.timeout
        return LOCAL_TIMEOUT if self.model.startswith("local:") else DEFAULT_TIMEOUT

    @property
    def stall(self) -> float:
        if self.stall_timeout is not None:
            return self.stall_timeout
        return LOCAL_TIMEOUT if self.model.startswith("local:") else DEFAULT_STALL

    @property
    def session_tokens(self) -> int:
        """The compaction budget: the option, else 3000 for local models (8192-token context), else 24000."""
        if self.context_tokens is not None:
            return self.context_tokens
        return 3000 if self.model.startswith("local:") else 24000

    @property
    def prompt_settings(self) -> dict[str, Any]:
        """What the world's prompts are built with."""
        return {
            "post_chars": self.post_chars,
            "message_cap": self.message_cap,
            "style": self.style,
            "menu_seed": self.menu_seed,
            "menu_cap": self.menu_cap,
        }

    @property
    def style(self) -> Literal["full", "menu", "compact"]:
        if self.prompt_style is not None:
            return self.prompt_style
        return "compact" if self.model.startswith("local:") else "full"

    @property
    def answer_cap(self) -> int:
        """The max_tokens every call is sent with: the flag, else the default cap."""
        if self.max_tokens is not None:
            return self.max_tokens
        return LOCAL_MAX_TOKENS if self.model.startswith("local:") else DEFAULT_MAX_TOKENS

    @field_validator("model")
    @classmethod
    def _model_named(cls, v: str) -> str:
        provider, sep, name = v.partition(":")
        if not v.strip() or (sep and (not provider.strip() or not name.strip())):
            raise ValueError("expected PROVIDER:MODEL with both parts (e.g. openai:gpt-4o-mini)")
        return v

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str | None) -> str | None:
        if v is None:
            return v
        try:
            parts = urlsplit(v)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in v):
            raise ValueError("expected an http:// or https:// URL with a host (e.g. http://127.0.0.1:8080/v1)")
        return v
