"""Mesa interop: SchellingWorld under mesa.batch_run gives our runner's reference results.

SchellingWorld takes keyword parameters (SchellingWorld(seed=3, threshold="3/4", size=10)) and
its step() plays one all-rule round, so batch_run drives the reference run; `running` turns
False at equilibrium, when blocked, or at max_rounds.
"""

from __future__ import annotations

import multiprocessing

from mam_bench.runner import PairSpec, prepare, run_reference


def test_batch_run_equals_runner_reference() -> None:
    method = multiprocessing.get_start_method(allow_none=True)
    import mesa  # noqa: F401  (importing batch_run forces the spawn start method)
    from mesa.batchrunner import batch_run

    from mam_bench.models.schelling.model import SchellingWorld

    try:
        rows = batch_run(
            SchellingWorld,
            parameters={"seed": list(range(6)), "threshold": ["1/2", "3/4"], "size": 10},
            iterations=1,
            max_steps=500,
            number_processes=1,
            data_collection_period=-1,
            display_progress=False,
        )
    finally:
        if method:
            multiprocessing.set_start_method(method, force=True)
    assert len(rows) == 12
    for row in rows:
        prep = prepare(
            PairSpec.build(
                world="schelling", seed=row["seed"], params={"threshold": row["threshold"], "size": 10}, influence=0
            )
        )
        world, ref_rows = run_reference(prep)
        assert row["Step"] == world.round
        assert row["oeh"] == ref_rows[-1]["metrics"]["oeh"]
        assert row["satisfaction"] == ref_rows[-1]["metrics"]["satisfaction"]
