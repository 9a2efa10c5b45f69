"""A world's outcome is one `Scoring` declaration; worlds written with the older class attributes
get the same declaration built from them, and keep the old names as mirrors."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mam_bench.adapter import MesaWorld
from mam_bench.models.voter.model import VoterModel, VoterWorld
from mam_bench.registry import get_world
from mam_bench.scoring import Scoring


def test_older_attributes_build_the_same_scoring_as_the_declaration() -> None:
    class Old(MesaWorld):
        name = "old_voter"
        model_class = VoterModel
        Action = VoterWorld.Action
        objectives = {"spread": +1, "suppress": -1}
        primary_metric = "share"
        secondary_metric = "consensus_round"

    assert Old.scoring == VoterWorld.scoring
    assert Old.scoring.default_objective == "spread"  # the first, as MesaWorld always chose
    assert VoterWorld.objectives == {"spread": 1, "suppress": -1} and VoterWorld.primary_metric == "share"


def test_a_subclass_may_change_one_older_attribute_on_top_of_its_parents_scoring() -> None:
    # a swarm task names only its default objective; the rest comes from the swarm base class
    foraging = get_world("foraging").scoring
    assert foraging.default_objective == "hinder"
    assert foraging.metric == "ordinary_score" and foraging.metric_for("hinder") == "score"
    assert foraging.masks_influence and get_world("foraging").masks_influence


def test_scoring_and_older_attributes_together_are_refused() -> None:
    with pytest.raises(TypeError, match="not both"):

        class Both(VoterWorld):
            scoring = Scoring(metric="share", objectives={"spread": +1})
            primary_metric = "share"


@pytest.mark.parametrize(
    "fields",
    [
        {"metric": "m", "objectives": {}},
        {"metric": "m", "objectives": {"up": 2}},
        {"metric": "m", "objectives": {"up": 1}, "default_objective": "down"},
        {"metric": "m", "objectives": {"up": 1}, "objective_metrics": {"down": "n"}},
        {"metric": "m", "objectives": {"up": 1}, "typo": True},
    ],
)
def test_a_scoring_that_cannot_mean_anything_is_refused(fields) -> None:
    with pytest.raises(ValidationError):
        Scoring(**fields)
