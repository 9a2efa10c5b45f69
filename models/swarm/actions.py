"""The swarm action schema: one primary action plus an optional local message (<= 120 chars)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from mam_bench.models.swarm.grid import BASE_ACTIONS


class SwarmAction(BaseModel):
    """`{"action": "UP", "message": "..."}`; longer messages are cut to 120 chars with '...'."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Literal[BASE_ACTIONS]  # required: a schema-valid answer always names its action
    message: str | None = None
