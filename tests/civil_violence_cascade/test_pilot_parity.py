"""Parity with the pilot, checked: the reference runs of its shipped Civil Violence cases and of its
development case, step by step, against the pilot's ordinary world written again from its code
(models/pilot/pilot_worlds.py, which imports nothing of ours; `mam-bench parity pilot` runs it)."""

from __future__ import annotations

import pytest

from mam_bench.models.pilot.pilot_worlds import cascade_reference
from mam_bench.runner import PairSpec, prepare, run_reference

#: (seed, the pilot's settings): its default suite's two cases, and its tests' development case
CASES = {
    "citizen-1000": (1000, dict(size=20, citizen_density=0.54, police_density=0.055, vision=2, threshold=0.0,
                                mean=0.0, std=0.7, max_jail=12, max_steps=30, role="citizen")),
    "police-53000": (53000, dict(size=20, citizen_density=0.54, police_density=0.05, vision=2, threshold=1.0,
                                 mean=0.0, std=0.7, max_jail=6, max_steps=30, role="police")),
    "development": (7, dict(size=8, citizen_density=0.75, police_density=0.0, vision=1, threshold=-100.0,
                            mean=0.0, std=0.0, max_jail=2, max_steps=30, role="citizen")),
}  # fmt: skip
OURS = {"mean": "preference_mean", "std": "preference_std", "role": "controlled_role"}


def ours(seed: int, case: dict) -> list[dict]:
    params = {OURS.get(k, k): str(v) for k, v in case.items()}
    _, rows = run_reference(prepare(PairSpec.build(world="civil_violence_cascade", seed=seed, params=params)))
    return rows


@pytest.mark.parametrize("name", CASES)
def test_the_reference_plays_the_pilots_trajectory(name):
    seed, case = CASES[name]
    cells, shares, end = cascade_reference(seed=seed, **case)
    rows = ours(seed, case)
    assert [[None if c is None else tuple(c) for c in r["locations"]] for r in rows] == cells
    assert [r["metrics"]["participation"] for r in rows] == pytest.approx(shares, abs=1e-15)
    assert (rows[-1]["status"] == "revolution") == (end == "revolution")


def test_the_development_case_stops_at_its_revolution():
    """Everyone turns active in the first step (threshold -100, no police): the pilot stops there."""
    seed, case = CASES["development"]
    cells, shares, end = cascade_reference(seed=seed, **case)
    assert (end, len(cells), shares[-1]) == ("revolution", 2, 1.0)
    assert len(ours(seed, case)) == 2
