"""Schelling parameters, frozen and validated; thresholds and vacancies are exact fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from mam_bench.params import ExactFraction, WorldParams

#: The pilot's landscape lists (docs/worlds/schelling.md, "Landscape"); their indices enter the seeding words.
LANDSCAPE_THRESHOLDS: tuple[Fraction, ...] = tuple(
    Fraction(x)
    for x in "0 1/8 1/7 1/6 1/5 1/4 2/7 1/3 3/8 2/5 3/7 1/2 4/7 3/5 5/8 2/3 5/7 3/4 4/5 5/6 6/7 7/8 1".split()
)
LANDSCAPE_VACANCIES: tuple[Fraction, ...] = tuple(
    Fraction(x) for x in ("1/10", "3/20", "1/5", "1/4", "3/10", "7/20", "2/5")
)


#: the largest board side `engine=auto` plays with the residents' own rule: where it costs less than
#: twice the compiled wave. None does: 10x at size 8, 85x at 20, 216x at 30 (bench/schelling_engines.py)
AGENTS_UP_TO = 0

#: the same for rule=pilot_v2, against its own compiled wave (`fast/pilot_wave.py`): none does either,
#: 4.3-19x a whole reference at sizes 8-40 (bench/schelling_engines.py)
PILOT_AGENTS_UP_TO = 0

#: largest threshold denominator: `same * den >= num * occ` with same, occ <= 8 stays exact in int64
MAX_DENOMINATOR = 2**40


class SchellingParams(WorldParams):
    size: int = Field(20, ge=3, le=2000, description="board side; the board is a size x size torus")
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
    rule: Literal["ours", "pilot_v1", "pilot_v2"] = Field(
        "ours",
        description="ours: the rule above; pilot_v1: the pilot's v1 page (streams=pilot priority=first); "
        "pilot_v2: the pilot's current rule, its placement (one permutation of the cells) and a vision-limited, "
        "strictly improving move (needs vision)",
    )
    vision: int | None = Field(
        None, ge=1, description="pilot_v2 only: Chebyshev radius a resident sees and moves within"
    )
    engine: Literal["auto", "agents", "compiled"] = Field(
        "auto",
        description="how a round is computed, never what (both give the same records): agents: every "
        "resident's own rule (`Resident.decide`) through Mesa's AgentSet; compiled: the same wave on arrays "
        f"(numba; rule=pilot_v2 has its own); auto: agents where they cost less than twice the compiled wave (up "
        f"to size {AGENTS_UP_TO}, pilot_v2 {PILOT_AGENTS_UP_TO}: at no size yet, they cost 4-216 times as much), "
        "else compiled",
    )
    rounds: int = Field(20, ge=1, description="treatment horizon (the pilot: exactly 20)")
    max_rounds: int = Field(
        500, ge=1, description="reference cap before HORIZON_EXHAUSTED (rule=pilot_v2: rounds, as the pilot's)"
    )

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

    @model_validator(mode="before")
    @classmethod
    def _pilot_rules(cls, data: object) -> object:
        """rule=pilot_v1 names the v1 page's stream design and order, pilot_v2 the pilot's order
        (replaced ids first); a contrary choice is refused."""
        rule = data.get("rule") if isinstance(data, dict) else None
        if rule in ("pilot_v1", "pilot_v2"):
            implied = (("streams", "pilot"), ("priority", "first")) if rule == "pilot_v1" else (("priority", "first"),)
            for name, value in implied:
                if data.setdefault(name, value) != value:
                    raise ValueError(f"rule={rule} plays {name}={value}, not {data[name]}")
        return data

    @model_validator(mode="after")
    def _pilot_v2(self) -> SchellingParams:
        if (self.rule == "pilot_v2") != (self.vision is not None):
            raise ValueError("vision is given with rule=pilot_v2, and only then")
        if self.rule == "pilot_v2":
            if self.move_rule != "nearest_satisfactory":
                raise ValueError("rule=pilot_v2 plays its own move rule, not move_rule=random_empty")
            if 2 * self.vision + 1 > self.size:
                raise ValueError(f"vision {self.vision} sees past the whole {self.size}x{self.size} board")
            if "max_rounds" in self.model_fields_set:
                raise ValueError("rule=pilot_v2 stops the reference at rounds (the pilot's max_steps), not max_rounds")
        return self

    @model_validator(mode="after")
    def _population(self) -> SchellingParams:
        if self.n_vacant < 1:
            raise ValueError(f"vacancy {self.vacancy} leaves no empty cell on a {self.size}x{self.size} board")
        if self.n_agents < 2:
            raise ValueError("vacancy leaves fewer than 2 agents")
        if self.rule == "pilot_v2" and self.n_agents % 2:
            raise ValueError(f"rule=pilot_v2 needs an even population (the pilot's halves), not {self.n_agents}")
        return self

    def as_json(self) -> dict[str, Any]:
        """Our own rule leaves `rule` and `vision` out, so its records read as they did before
        the pilot's rules were named here; `engine` is left out always (it moves no record)."""
        body = super().as_json()
        del body["engine"]  # how the rounds were computed is no part of what they hold
        if self.rule == "ours":
            del body["rule"], body["vision"]
        return body

    @property
    def plays_agents(self) -> bool:
        """Whether the residents' own rule plays (else the compiled wave): `engine`, and `auto` by size."""
        if self.engine == "agents":
            return True
        return self.engine == "auto" and self.size <= (PILOT_AGENTS_UP_TO if self.rule == "pilot_v2" else AGENTS_UP_TO)

    def engine_line(self) -> str:
        if self.plays_agents:
            return f"engine: agents (each resident's own rule through Mesa's AgentSet; engine={self.engine})"
        rule = "the pilot's rule (rule=pilot_v2)" if self.rule == "pilot_v2" else "the residents' rule"
        return f"engine: compiled ({rule} as one wave on arrays; engine={self.engine})"

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

    def memory_needed(self) -> tuple[str, int]:
        """A pair with both baselines, measured: about 0.6 GB at a million cells (the interpreter and
        its libraries, four worlds' arrays, the compiled wave's working arrays, a round's records),
        with a margin (`bench/scale.py` prints the peaks)."""
        return "size", 400 * 2**20 + 400 * self.cells
