"""What one pair produced (result.json): built once, frozen, then written; nothing is added after.

The per-run blocks (reference, treatment, controller, llm, validity, provenance, outcomes) stay
plain mappings: their shape belongs to the world, the controller and the provenance module. The
fields are declared in the order result.json lists them; an optional block is absent from the file
when it was not asked for (no judge, no baselines, no settle, no secondary metric).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from mam_bench.record_schema import RECORD_VERSION

#: a lift, delta or share: int or float kept as given (result.json's bytes must not move), or None
Number = int | float | None


class PairResult(BaseModel):
    """result.json of one pair."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record_version: int = RECORD_VERSION
    world: str
    seed: int = Field(ge=0)
    params: dict[str, Any]
    objective: str
    #: what the controller says of itself (`describe()`), its `name` the one it was chosen by
    controller: dict[str, Any]
    influence_ids: list[Any]
    horizon: int = Field(ge=1)
    metric: str
    secondary_metric: str | None
    direction: int = Field(ge=-1, le=1)
    reference: dict[str, Any]
    treatment: dict[str, Any]
    delta: Number
    lift: Number
    relative: Number
    best_lift: Number
    lift_area: Number
    llm: dict[str, Any]
    validity: dict[str, Any]
    provenance: dict[str, Any]
    outcomes: dict[str, Any]
    #: the world's own judgement of each run, when it has a judge that judged
    judged: dict[str, Any] | None = None
    #: each rule-based baseline's lift against the same reference
    baselines: dict[str, Any] | None = None
    #: the lift that persists once the influence agents are handed back to the rule
    settled: dict[str, Any] | None = None
    secondary_delta: Number = None
    #: a lift on a count over everyone split into the ordinary agents' part and the influence agents' own part
    lift_split: dict[str, Number] | None = None

    def record(self) -> dict[str, Any]:
        """The content of result.json: every field given, in declaration order."""
        return {"record_version": self.record_version, **self.model_dump(exclude_unset=True)}

    def returned(self, wall_seconds: float, session: dict[str, Any]) -> dict[str, Any]:
        """What `run_pair` hands its caller: the record plus what depends on this process's luck
        (wall time; cache hits, retries and latency beside the LLM counts), never in result.json."""
        out = self.record()
        out["_wall_seconds"] = wall_seconds
        out["llm"] = {**out["llm"], **session}
        return out
