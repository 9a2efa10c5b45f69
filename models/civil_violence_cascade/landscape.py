"""The cascade's reference landscape (`mam-bench landscape civil_violence_cascade`): its parameters
and one all-rule run, registered beside the world rather than on it."""

from __future__ import annotations

from typing import Any, ClassVar

from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.status import Status
from mam_bench.world import play_round


class CascadeLandscape:
    """The landscape interface: `Params`, one reference run, the printed line per cell."""

    Params = CascadeParams

    #: the landscape's line per cell: (header, outcome, statistic over the seeds)
    landscape_summary: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("mean_part", "final_participation", "mean"),
        ("sd_part", "final_participation", "sd"),
        ("rev_share", "final_revolution", "mean"),
    )

    @staticmethod
    def reference_outcome(params: CascadeParams, seed: int, max_rounds: int | None = None) -> dict[str, Any]:
        """One all-rule run as a pair's reference plays it (the pilot's replaced ids masked; it stops at
        revolution or max_steps, or at max_rounds if sooner): `mam-bench landscape`'s row."""
        from mam_bench.models.civil_violence_cascade.model import CivilViolenceCascade as cls

        ids = cls(params, seed=seed)._default_influence_ids(cls._influence_count(params))
        world = cls(params, seed=seed, mask_ids=ids)
        cap = world._reference_cap() if max_rounds is None else min(max_rounds, world._reference_cap())
        while not world._done and world.round < cap:
            play_round(world)
        m = world.metrics()
        return {
            "status": world.run.status if world._done else Status.HORIZON_EXHAUSTED,
            "rounds": world.round,
            "final_participation": m["participation"],
            "final_revolution": m["revolution"],
        }
