"""`check_world` over every registered world, and proof that it catches broken worlds."""

from __future__ import annotations

import pytest

from mam_bench import global_draws
from mam_bench.adapter import IsolationError, MesaWorld
from mam_bench.registry import get_world, world_names
from mam_bench.scoring import Scoring
from mam_bench.testing import WorldCheckError, check_world
from mam_bench.world import play_round
from tests.adapter.coin_worlds import Coin, CoinModel, Flip


@pytest.mark.parametrize("name", world_names())
def test_registered_world_passes_check_world(name: str) -> None:
    report = check_world(get_world(name), seeds=(0, 1))
    assert (report["seeds"], report["checks"]) == (2, 22)
    assert "RandomActions" in report["capabilities"]  # every registered world's Action has one


# --- worlds that break the contract ---------------------------------------------------------------
class Coins(MesaWorld):
    name = "coins"
    model_class = CoinModel
    rounds = 4
    Action = Flip
    scoring = Scoring(metric="heads", objectives={"more": +1})

    def apply(self, agent: Coin, action: Flip) -> None:
        agent.heads += int(action.heads)

    def outcome(self) -> dict[str, float]:
        return {"heads": sum(a.heads for a in self.model.agents)}


class IllegalFlip(Flip):
    @classmethod
    def random_action(cls, observation, rng) -> dict:
        return {"heads": "maybe"}


class IllegalRandom(Coins):
    name = "illegal_random"
    Action = IllegalFlip


def test_a_conforming_world_passes() -> None:
    assert check_world(Coins, seeds=(0, 1)) == {
        "seeds": 2,
        "checks": 22,
        "capabilities": ["HorizonBasin", "RandomActions"],
    }


def test_global_random_is_detected() -> None:
    world = Coins(seed=0, cheat="true")
    with global_draws.checked(), pytest.raises(IsolationError, match="global `random`"):
        play_round(world)


def test_check_world_reports_an_illegal_random_action() -> None:
    with pytest.raises(WorldCheckError, match="random_action is not legal"):
        check_world(IllegalRandom, seeds=(0,))


class StrayRandom(Coins):
    """A world that still defines an action-space hook on itself, where nothing asks for it."""

    name = "stray_random"

    @classmethod
    def legal_actions(cls, observation) -> list[dict]:
        return [{"heads": False}, {"heads": True}]


def test_check_world_reports_an_action_hook_left_on_the_world() -> None:
    with pytest.raises(WorldCheckError, match="legal_actions is defined on the world"):
        check_world(StrayRandom, seeds=(0,))


def test_check_world_lists_the_capabilities_a_world_has() -> None:
    from mam_bench.models.civil_violence.model import CivilViolenceWorld

    listed = check_world(CivilViolenceWorld, seeds=(0,), rounds=3)["capabilities"]
    assert listed == ["RuleActions", "HorizonBasin", "RandomActions", "ActionMenu", "ActingNow"]


class CraftingSaysUnkept(get_world("crafting")):
    """Crafting claiming its agents never keep the rule's answer (they keep what it remembered)."""

    rule_answer_kept = False


def test_check_world_reports_a_rule_answer_said_unkept_that_is_kept() -> None:
    with pytest.raises(WorldCheckError, match="rule_answer_kept: an agent playing the rule's answer it was asked"):
        check_world(CraftingSaysUnkept, seeds=(0, 1))
