"""Settings of the LLM controller, validated before any call (a typo is an error, not a default)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class LLMOptions(BaseModel):
    """What the CLI's LLM flags (and PairSpec.controller_options) may set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(..., min_length=1, description="PROVIDER:MODEL for init_chat_model, or local:gemma3-270m")
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float | None = Field(None, ge=0.0, le=2.0, allow_inf_nan=False)
    max_tokens: int | None = Field(None, ge=1)
    max_concurrency: int = Field(8, ge=1, le=256)
    cache: str | None = None
    one_call: bool = False
    price_table: str | dict[str, dict[str, float]] | None = None
    timeout: float = Field(60.0, gt=0, le=3600, allow_inf_nan=False)
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
    max_retries: int = Field(6, ge=0, le=100)
    retry_budget: float = Field(300.0, gt=0, description="seconds of retrying per call, all attempts")
    backoff_base: float = Field(0.5, ge=0)
    backoff_max: float = Field(30.0, ge=0)
    repair: int = Field(1, ge=0, le=2, description="repair retries quoting the validation error")
    post_chars: int = Field(600, ge=1, description="asked-for post length (the board caps at 4000)")
    message_cap: int = Field(4000, ge=1, description="a one-call message longer than this is rejected")
    structured: bool = True
