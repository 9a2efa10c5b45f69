"""The voter world's parameters: the model's own keyword defaults, bounded so that a network of a
million nodes is a clear error (or a memory refusal) rather than a run that never ends."""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from mam_bench.params import WorldParams

#: the most nodes a run may ask for; whether that many fit is the memory estimate's to say
MAX_NODES = 200_000


class VoterParams(WorldParams):
    n: int = Field(60, ge=1, le=MAX_NODES, description="nodes (agents) of the small-world network")
    k: int = Field(4, ge=0, le=100, description="each node's neighbours in the ring lattice before rewiring")
    p: float = Field(0.1, ge=0.0, le=1.0, description="probability of rewiring each edge")
    initial_share: float = Field(0.5, ge=0.0, le=1.0, description="chance a node starts with opinion 1")

    @field_validator("k")
    @classmethod
    def _ring_fits(cls, k: int, info: ValidationInfo) -> int:
        n = info.data.get("n")
        if n is not None and k > n:
            raise ValueError(f"{k} neighbours do not fit in a ring of n={n} nodes")
        return k

    def memory_needed(self) -> tuple[str, int]:
        """A pair with both baselines, measured by `bench/scale.py`: the interpreter and its
        libraries, then per node four worlds' Mesa agents, cells and graphs, with a margin."""
        from mam_bench.models.voter.model import PER_EDGE, PER_NODE

        return "n", 400 * 2**20 + self.n * (PER_NODE + PER_EDGE * self.k)
