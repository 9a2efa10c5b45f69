"""Parameters shared by the five swarm tasks (defaults: 10x10, N=10, view 5, 100 rounds)."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, model_validator

from mam_bench.params import WorldParams

TASKS = ("pursuit", "synchronization", "foraging", "flocking", "transport")


def strategies(params_cls: type[WorldParams]) -> tuple[str, ...]:
    """The ordinary strategies a task offers: the choices of its `strategy` parameter."""
    return get_args(params_cls.model_fields["strategy"].annotation)


class SwarmParams(WorldParams):
    size: int = Field(10, ge=6, le=400, description="grid side, outer wall ring included")
    agents: int = Field(10, ge=1, le=5000, description="number of agents N")
    view: int = Field(5, ge=1, le=21, description="k of the k x k egocentric view (odd)")
    rounds: int = Field(100, ge=1, le=100000, description="max_round")
    memory: int = Field(5, ge=1, le=20, description="frames of view history in a prompt")
    influence: int = Field(2, ge=0, description="influence agents when no ids are named")
    board: bool = Field(True, description="coordination board; off = pure SwarmBench locality")
    noise: float = Field(0.0, ge=0.0, le=1.0, description="share of messages corrupted")
    delay: int = Field(0, ge=0, le=20, description="messages arrive 0..delay rounds late")
    rules: Literal["swarmbench", "mam"] = Field(
        "swarmbench", description="swarmbench: upstream's game, quirks included; mam: the earlier variants (README)"
    )
    commander: bool = Field(
        False, description="centralized variant: agent 0 sees the whole map; it and the others message only each other"
    )
    message_range: Literal["send", "deliver"] | None = Field(
        None, description="range measured at sending (paper, mam) or delivery (upstream); default: the rule set's"
    )

    def influence_count(self) -> int:
        return self.influence

    def board_on(self) -> bool:
        return self.board

    @property
    def upstream(self) -> bool:
        """True under `rules=swarmbench` (upstream's game)."""
        return self.rules == "swarmbench"

    @property
    def range_at(self) -> str:
        return self.message_range or ("deliver" if self.upstream else "send")

    @model_validator(mode="after")
    def _fits(self) -> SwarmParams:
        if self.view % 2 == 0:
            raise ValueError("view must be odd (the agent sits in the middle)")
        if self.agents > (self.size - 2) ** 2 // 3:
            raise ValueError(f"{self.agents} agents do not fit on a {self.size}x{self.size} grid")
        return self
