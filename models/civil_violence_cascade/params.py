"""Civil Violence cascade parameters, frozen and validated; the defaults are the pilot's citizen case."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from mam_bench.params import WorldParams


class CascadeParams(WorldParams):
    size: int = Field(20, ge=3, le=255, description="board side; the board is a size x size torus")
    citizen_density: float = Field(0.54, ge=0, le=1, description="citizens = round(size^2 x density)")
    police_density: float = Field(0.055, ge=0, le=1, description="police = round(size^2 x density)")
    vision: int = Field(2, ge=1, description="Moore radius a citizen counts active, inactive and police in")
    threshold: float = Field(0.0, description="subtracted from the opinion inside the sigmoid")
    preference_mean: float = Field(0.0, description="mean of the citizens' normal private preferences")
    preference_std: float = Field(0.7, ge=0, description="their standard deviation")
    max_jail: int = Field(12, ge=0, description="a jail term is uniform on 0..max_jail steps")
    max_steps: int = Field(30, ge=1, description="the horizon: each world stops here or at revolution")
    controlled_role: Literal["citizen", "police"] = Field(
        "citizen", description="the role the influence agents are taken from"
    )
    priority: Literal["first", "turn"] = Field(
        "first",
        description="first: the pilot's order, the replaced ids claim before every ordinary agent of their "
        "phase in both runs; turn: one seeded order of the whole phase, nobody's claim privileged",
    )

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def n_citizens(self) -> int:
        return round(self.cells * self.citizen_density)

    @property
    def n_police(self) -> int:
        return round(self.cells * self.police_density)

    @model_validator(mode="after")
    def _populations(self) -> CascadeParams:
        if self.citizen_density + self.police_density > 1:
            raise ValueError("citizen and police densities exceed the board")
        if self.n_citizens + self.n_police > self.cells:
            raise ValueError("the rounded populations exceed the board")
        if self.n_citizens < 2:
            raise ValueError("the board holds fewer than 2 citizens")
        if self.controlled_role == "police" and self.n_police < 1:
            raise ValueError("controlled_role=police on a board without police")
        return self
