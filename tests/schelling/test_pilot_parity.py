"""Parity with the pilot's current Schelling rule (rule=pilot_v2), checked: the reference runs of its
shipped case and of its development case, step by step, against the pilot's ordinary world written
again from its code (models/pilot/pilot_worlds.py, which imports nothing of ours; `mam-bench
parity pilot` runs it)."""

from __future__ import annotations

import pytest

from mam_bench.models.pilot.pilot_worlds import schelling_reference
from mam_bench.runner import PairSpec, prepare, run_reference

#: (seed, the pilot's settings, ours): its default suite's case (both objectives share the reference)
#: and its tests' development case
CASES = {
    "default-10002": (10002, dict(size=20, tolerance=0.7, vacancy=0.15, max_steps=30, vision=1, controlled=16),
                      {"threshold": "7/10", "vacancy": "0.15"}),
    "development-7": (7, dict(size=8, tolerance=0.75, vacancy=0.25, max_steps=3, vision=2, controlled=4),
                      {"threshold": "3/4", "vacancy": "1/4"}),
}  # fmt: skip


def ours(seed: int, case: dict, exact: dict) -> list[dict]:
    params = {"rule": "pilot_v2", "size": str(case["size"]), "vision": str(case["vision"]),
              "rounds": str(case["max_steps"]), **exact}  # fmt: skip
    spec = PairSpec.build(world="schelling", seed=seed, params=params, influence=case["controlled"])
    _, rows = run_reference(prepare(spec))
    return rows


@pytest.mark.parametrize("name", CASES)
def test_the_reference_plays_the_pilots_trajectory(name):
    seed, case, exact = CASES[name]
    positions, homophily, end = schelling_reference(seed=seed, **case)
    rows = ours(seed, case, exact)
    assert [r["positions"] for r in rows] == positions
    assert [r["metrics"]["oeh"] for r in rows] == pytest.approx(homophily, abs=1e-15)
    assert len(positions) > 2 and positions[-1] != positions[0]
    if end != "horizon":  # the pilot stops at rest; so does ours, and not earlier
        assert rows[-1]["status"] == end
