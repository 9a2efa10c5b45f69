"""The pilot's set-up, from its placement code: one `default_rng(seed)` gives the cell permutation
(citizens take its first entries, police the next), one normal preference per citizen, then the
replaced ids drawn from the role's pool; both runs share all of it."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.civil_violence_cascade.model import CivilViolenceCascade
from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.runner import PairSpec, prepare

#: the pilot's default civil-violence cases (its default-suite.yaml): role, seed, parameters
CITIZEN_CASE = {"police_density": 0.055, "threshold": 0.0, "max_jail": 12}
POLICE_CASE = {"police_density": 0.05, "threshold": 1.0, "max_jail": 6, "controlled_role": "police"}


@pytest.mark.parametrize(("seed", "case"), [(1000, CITIZEN_CASE), (53000, POLICE_CASE)])
def test_the_initial_board_and_replaced_ids_follow_the_pilots_draws(seed, case):
    p = CascadeParams(**case)
    assert (p.n_citizens, p.n_police) == (216, 22 if case is CITIZEN_CASE else 20)
    rng = np.random.default_rng(seed)
    cells = rng.permutation(400)
    prefs = [rng.normal(0.0, 0.7) for _ in range(216)]
    pool = tuple(range(216)) if p.controlled_role == "citizen" else tuple(range(216, 216 + p.n_police))
    replaced = sorted(int(i) for i in rng.choice(pool, 16, replace=False))

    w = CivilViolenceCascade(p, seed=seed)
    assert w.location == [divmod(int(c), 20) for c in cells[: 216 + p.n_police]]
    assert w.preference == pytest.approx(prefs, abs=0)
    assert w._default_influence_ids(16) == replaced
    prep = prepare(
        PairSpec.build(world="civil_violence_cascade", seed=seed, params={k: str(v) for k, v in case.items()})
    )
    assert list(prep.influence_ids) == replaced
    assert prep.new_world(treatment=False).run.mask_ids == tuple(replaced)


def test_naming_a_police_officer_is_allowed_in_the_police_role():
    spec = PairSpec.build(
        world="civil_violence_cascade", seed=53000, params={"controlled_role": "police"}, influence_ids=[230, 231]
    )
    assert prepare(spec).influence_ids == (230, 231)
