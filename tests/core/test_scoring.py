"""A world's outcome is one `Scoring` declaration, read as `world_cls.scoring`; a subclass changes
a field by copying its parent's, and a world that declares no `scoring` fails the contract check."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mam_bench.models.voter.model import VoterWorld
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare
from mam_bench.scoring import Scoring
from mam_bench.testing import contract


def test_a_subclass_changes_one_field_on_top_of_its_parents_scoring() -> None:
    # a swarm task names only its default objective; the rest comes from the swarm base class
    foraging = get_world("foraging").scoring
    assert foraging.default_objective == "hinder"
    assert foraging.metric == "ordinary_score" and foraging.metric_for("hinder") == "score"
    assert foraging.masks_influence


def test_a_world_without_a_scoring_declaration_fails_the_contract() -> None:
    class Bare(VoterWorld):
        name = "bare"
        scoring = None  # type: ignore[assignment]

    prep = prepare(PairSpec(world="voter"), VoterWorld)
    assert contract(VoterWorld, prep) == []
    assert contract(Bare, prep) == ["contract: scoring is not defined"]


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
