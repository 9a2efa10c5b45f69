"""check_world in both roles, under both orders: null steering exact, isolation, audit identity."""

from __future__ import annotations

import pytest

from mam_bench.models.civil_violence_cascade.model import CivilViolenceCascade
from mam_bench.testing import check_world
from mam_bench.world import fork, play_round

SMALL = {"size": "10", "citizen_density": "0.6", "police_density": "0.1", "max_steps": "6"}


@pytest.mark.parametrize("role", ["citizen", "police"])
@pytest.mark.parametrize("priority", ["first", "turn"])
def test_check_world_passes(role: str, priority: str) -> None:
    params = {**SMALL, "controlled_role": role, "priority": priority}
    counts = check_world(CivilViolenceCascade, seeds=(0, 7), rounds=6, influence=3, params=params)
    assert counts["seeds"] == 2


def test_check_world_sees_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a rule that reads who is steered breaks null steering."""
    honest = CivilViolenceCascade.citizen_rule

    def leaky(self, agent_id: int):
        active, dest = honest(self, agent_id)
        return (active or bool(self.run.influence_ids)), dest

    monkeypatch.setattr(CivilViolenceCascade, "citizen_rule", leaky)
    with pytest.raises(AssertionError, match="null steering"):
        check_world(CivilViolenceCascade, seeds=(0,), rounds=4, influence=3, params={**SMALL, "threshold": "5"})


def test_a_fork_plays_on_as_its_world():
    """A fork taken mid-run plays on exactly as the original, and shares only the neighbourhoods."""
    from mam_bench.models.civil_violence_cascade.params import CascadeParams

    w = CivilViolenceCascade(CascadeParams(size=12), seed=4, influence_ids=(3,))
    play_round(w)
    twin = fork(w)
    assert twin.location is not w.location and twin.active is not w.active
    for _ in range(3):
        play_round(w)
        play_round(twin)
    assert twin.snapshot() == w.snapshot() and twin.metrics() == w.metrics()
