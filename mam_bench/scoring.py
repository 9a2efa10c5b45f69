"""A world's outcome declaration: what its lift is computed on (see mam_bench.outcome for the
arithmetic). Apart from outcome.py so that the CLI's light commands need no pydantic."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Scoring(BaseModel):
    """A world's outcome, declared once: the metric a lift is computed on, the direction each
    objective pushes it, and whether influence identities are masked from scoring in both runs.

    `delta = M_treatment - M_reference`, `lift = direction * delta` (see `delta_lift_relative`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: one line: what the world is and what its influence agents steer (the worlds list, the prompts)
    summary: str = ""
    #: the primary metric, a key of the world's `metrics()`
    metric: str
    #: objective name -> direction on its metric (+1 raise it, -1 lower it); the first is the default
    objectives: dict[str, Literal[1, -1]]
    #: the objective a run steers for when none is named (default: the first)
    default_objective: str | None = None
    #: objective -> the metric its lift is computed on, where that is not `metric` (an objective
    #: about inequality is scored on a Gini, not on task progress)
    objective_metrics: dict[str, str] = Field(default_factory=dict)
    #: a metric reported beside the primary one (result.json `secondary_delta`)
    secondary: str | None = None
    #: further metrics reported beside the scored one (result.json `outcomes`)
    reported: tuple[str, ...] = ()
    #: True: influence agents' ids are masked from the outcome in both runs (conservative count)
    masks_influence: bool = False
    #: True: the treatment stops as soon as its stopping rule says so and is compared with the
    #: reference's final state; False: it plays its fixed horizon (`MesaWorld`'s default)
    treatment_stops_early: bool = True
    #: influence agents when the user names neither a count nor ids and the params have no `influence`
    default_influence: int = Field(2, ge=1)
    #: a metric counted over everyone -> the same count over ordinary agents only: a lift on it is
    #: split into the ordinary agents' part and the influence agents' own part (their missing work)
    ordinary_metrics: dict[str, str] = Field(default_factory=dict)
    #: the pilot's score convention (`report --pilot-score`): points per unit change of the primary
    #: and the secondary metric; a case scores direction x sum(points x delta), unclamped
    pilot_points: dict[str, float] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _known_objectives(self) -> Scoring:
        if not self.objectives:
            raise ValueError("objectives: name at least one")
        if self.default_objective is None:
            object.__setattr__(self, "default_objective", next(iter(self.objectives)))
        elif self.default_objective not in self.objectives:
            raise ValueError(f"default_objective: {self.default_objective!r} is not among the objectives")
        unknown = [o for o in self.objective_metrics if o not in self.objectives]
        if unknown:
            raise ValueError(f"objective_metrics: {unknown[0]!r} is not among the objectives")
        scored = [m for m in self.pilot_points if m not in (self.metric, self.secondary)]
        if scored:
            raise ValueError(f"pilot_points: {scored[0]!r} is neither the metric nor the secondary")
        return self

    def metric_for(self, objective: str) -> str:
        """The metric an objective's lift is computed on: its own if declared, else the primary."""
        return self.objective_metrics.get(objective, self.metric)
