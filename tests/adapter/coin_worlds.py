"""User worlds of coins: a Mesa model of coins that flip (one variant draws from Python's global
generator), and two worlds that leave the influence agents out of their outcome: one through
`ordinary_agents()` (the same agents in both runs), one through `self.run.influence_ids` (empty in the
reference), which breaks null steering. Registered by the tests that run them."""

from __future__ import annotations

import random

import mesa
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import MesaWorld
from mam_bench.scoring import Scoring


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


class MaskedCoins(MesaWorld):
    """Heads per ordinary coin; the influence coins could flip heads by their own work."""

    name = "masked_coins"
    model_class = CoinModel
    rounds = 6
    Action = Flip
    scoring = Scoring(metric="heads", objectives={"more": +1}, masks_influence=True)

    def apply(self, agent: Coin, action: Flip) -> None:
        agent.heads += int(action.heads)

    def outcome(self) -> dict[str, float]:
        counted = self.ordinary_agents()
        return {"heads": sum(a.heads for a in counted) / len(counted)}


class InfluenceMaskedCoins(MaskedCoins):
    """The mistake: `influence_ids` is empty in the reference, so the two runs count different coins."""

    name = "influence_masked_coins"

    def outcome(self) -> dict[str, float]:
        counted = [a for a in self.model.agents if a.unique_id not in self.run.influence_ids]
        return {"heads": sum(a.heads for a in counted) / len(counted)}
