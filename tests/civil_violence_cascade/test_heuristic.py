"""The heuristics move participation their objective's way, in both roles, on the pilot's cases."""

from __future__ import annotations

import statistics

import pytest

from mam_bench.runner import PairSpec, run_pair

CITIZEN_CASE = {"police_density": "0.055", "threshold": "0.0", "max_jail": "12"}
POLICE_CASE = {"police_density": "0.05", "threshold": "1.0", "max_jail": "6", "controlled_role": "police"}


@pytest.mark.parametrize("objective", ["increase", "decrease"])
@pytest.mark.parametrize(("case", "seeds"), [(CITIZEN_CASE, (1000, 1001, 1002)), (POLICE_CASE, (53000, 53001, 53002))])
def test_heuristic_lift_is_positive_on_average(case, seeds, objective):
    lifts = [
        run_pair(
            PairSpec.build(
                world="civil_violence_cascade", seed=s, controller="heuristic", objective=objective, params=case
            )
        )["lift"]
        for s in seeds
    ]
    assert statistics.fmean(lifts) > 0
