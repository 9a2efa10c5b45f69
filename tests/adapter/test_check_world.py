"""`check_world` over every registered world, and proof that it catches broken worlds."""

from __future__ import annotations

import random

import mesa
import pytest
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import IsolationError, MesaWorld
from mam_bench.registry import get_world, world_names
from mam_bench.scoring import Scoring
from mam_bench.testing import WorldCheckError, check_world


@pytest.mark.parametrize("name", world_names())
def test_registered_world_passes_check_world(name: str) -> None:
    report = check_world(get_world(name), seeds=(0, 1))
    assert report == {"seeds": 2, "checks": 20}


# --- worlds that break the contract ---------------------------------------------------------------
class Coin(mesa.Agent):
    def __init__(self, model: mesa.Model):
        super().__init__(model)
        self.heads = 0

    def step(self) -> None:
        self.heads += int(self.random.random() < 0.5)


class GlobalCoin(Coin):
    def step(self) -> None:
        self.heads += int(random.random() < 0.5)  # Python's global generator: not addressed


class CoinModel(mesa.Model):
    def __init__(self, n: int = 6, cheat: bool = False, seed: int | None = None):
        super().__init__(seed=seed)
        (GlobalCoin if cheat else Coin).create_agents(self, n)

    def step(self) -> None:
        self.agents.shuffle_do("step")


class Flip(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    heads: bool = False


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


class IllegalRandom(Coins):
    name = "illegal_random"

    @classmethod
    def random_action(cls, observation, rng) -> dict:
        return {"heads": "maybe"}


def test_a_conforming_world_passes() -> None:
    assert check_world(Coins, seeds=(0, 1)) == {"seeds": 2, "checks": 20}


def test_global_random_is_detected() -> None:
    world = Coins(seed=0, cheat="true")
    with pytest.raises(IsolationError, match="global `random`"):
        world.play_round()


def test_check_world_reports_an_illegal_random_action() -> None:
    with pytest.raises(WorldCheckError, match="random_action is not legal"):
        check_world(IllegalRandom, seeds=(0,))
