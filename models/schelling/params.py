"""Schelling parameters, frozen and validated; thresholds and vacancies are exact fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, field_validator, model_validator

from mam_bench.params import ExactFraction, WorldParams

#: The pilot's landscape lists (spec section 6); their indices enter the seeding words.
LANDSCAPE_THRESHOLDS: tuple[Fraction, ...] = tuple(
    Fraction(x)
    for x in "0 1/8 1/7 1/6 1/5 1/4 2/7 1/3 3/8 2/5 3/7 1/2 4/7 3/5 5/8 2/3 5/7 3/4 4/5 5/6 6/7 7/8 1".split()
)
LANDSCAPE_VACANCIES: tuple[Fraction, ...] = tuple(
    Fraction(x) for x in ("1/10", "3/20", "1/5", "1/4", "3/10", "7/20", "2/5")
)


#: largest threshold denominator: `same * den >= num * occ` with same, occ <= 8 stays exact in int64
MAX_DENOMINATOR = 2**40


class SchellingParams(WorldParams):
    size: int = Field(20, ge=3, le=200, description="board side; the board is a size x size torus")
    threshold: ExactFraction = Field(Fraction(3, 4), description="same-group share needed, compared exactly")
    vacancy: ExactFraction = Field(Fraction(1, 4), description="share of empty cells")
    move_rule: Literal["nearest_satisfactory", "random_empty"] = "nearest_satisfactory"
    streams: Literal["isolated", "pilot"] = Field(
        "isolated",
        description="isolated: each agent's order key and tie-breaks from its own per-round stream (swapping "
        "others never moves them); pilot: the page's shared order permutation and tie stream (reproduces it)",
    )
    priority: Literal["turn", "first"] = Field(
        "turn",
        description="turn: each influence claim is resolved at its agent's own slot in the round's reservation "
        "order (order key from its own stream), a cell reserved earlier makes it fail; first: the pilot's order, "
        "influence claims accepted before any ordinary agent reserves (reproduces the page with streams=pilot)",
    )
    rounds: int = Field(20, ge=1, description="treatment horizon (the pilot: exactly 20)")
    max_rounds: int = Field(500, ge=1, description="reference cap before HORIZON_EXHAUSTED")

    @field_validator("threshold")
    @classmethod
    def _threshold_range(cls, v: Fraction) -> Fraction:
        if not 0 <= v <= 1:
            raise ValueError("threshold must lie in [0, 1]")
        if v.denominator > MAX_DENOMINATOR:
            raise ValueError(
                f"denominator {v.denominator} is above {MAX_DENOMINATOR}; shares of at most 8 neighbours are "
                "compared exactly in 64-bit integers, so give the threshold as a fraction with a smaller denominator"
            )
        return v

    @field_validator("vacancy")
    @classmethod
    def _vacancy_range(cls, v: Fraction) -> Fraction:
        if not 0 < v < 1:
            raise ValueError("vacancy must lie strictly between 0 and 1")
        return v

    @model_validator(mode="after")
    def _population(self) -> SchellingParams:
        if self.n_vacant < 1:
            raise ValueError(f"vacancy {self.vacancy} leaves no empty cell on a {self.size}x{self.size} board")
        if self.n_agents < 2:
            raise ValueError("vacancy leaves fewer than 2 agents")
        return self

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def n_vacant(self) -> int:
        return int(round(self.vacancy * self.cells))

    @property
    def n_agents(self) -> int:
        return self.cells - self.n_vacant

    @property
    def n_a(self) -> int:
        """Group A holds ids 0..n_a-1; with an odd population A gets the extra agent."""
        return (self.n_agents + 1) // 2
