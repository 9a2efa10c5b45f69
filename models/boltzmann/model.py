"""Boltzmann wealth: agents hand one unit to a random agent; influence agents choose the recipient.

Outcome: the Gini coefficient of wealth. `equalize` lowers it, `concentrate` raises it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mesa
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import MesaWorld
from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request
from mam_bench.scoring import Scoring


# --- an ordinary Mesa model ----------------------------------------------------------------------
def gini(model: mesa.Model) -> float:
    wealth = sorted(a.wealth for a in model.agents)
    n, total = len(wealth), sum(wealth)
    if total == 0:
        return 0.0
    b = sum(w * (n - i) for i, w in enumerate(wealth)) / (n * total)
    return 1 + 1 / n - 2 * b


class WealthAgent(mesa.Agent):
    def __init__(self, model: mesa.Model):
        super().__init__(model)
        self.wealth = 1

    def step(self) -> None:
        if self.wealth > 0:
            other = self.random.choice(self.model.agents)
            other.wealth += 1
            self.wealth -= 1


class BoltzmannModel(mesa.Model):
    def __init__(self, n: int = 50, seed: int | None = None):
        super().__init__(seed=seed)
        WealthAgent.create_agents(self, n)
        self.datacollector = mesa.DataCollector(model_reporters={"gini": gini})
        self.datacollector.collect(self)

    def step(self) -> None:
        self.agents.shuffle_do("step")
        self.datacollector.collect(self)


# --- its declaration -------------------------------------------------------------------------------
class Give(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    to: int | None = None  # the recipient's id; None keeps the unit

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """Keeping the unit, or giving it to any other existing agent."""
        return [{"to": i} for i in (None, *observation.extra["ids"])]

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        choices = [None, *observation.extra["ids"]]
        return {"to": choices[int(rng.integers(len(choices)))]}


class BoltzmannWorld(MesaWorld):
    name = "boltzmann"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    model_class = BoltzmannModel
    rounds = 40
    Action = Give
    scoring = Scoring(
        summary="Boltzmann wealth exchange; influence agents pick who receives their unit (Gini)",
        metric="gini",
        objectives={"equalize": -1, "concentrate": +1},
    )
    state_attribute = "wealth"
    state_bins = (0, 1, 2, 4)  # 0, 1, 2, 3-4, above 4: the same bins on both boards

    def apply(self, agent: WealthAgent, action: Give) -> str | None:
        if action.to is None:
            return None
        other = next((a for a in self.model.agents if a.unique_id == action.to), None)
        if other is None:
            return "invalid"
        if agent.wealth == 0:
            return "blocked"
        agent.wealth -= 1
        other.wealth += 1
        return None

    def outcome(self) -> dict[str, float]:
        return {"gini": gini(self.model)}

    def observation(self, agent: WealthAgent) -> dict[str, Any]:
        others = sorted((a.wealth, a.unique_id) for a in self.model.agents if a is not agent)
        return {"poorest": others[0][1], "richest": others[-1][1], "ids": sorted(i for _, i in others)}

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        agent = self.actors()[actor_id]
        if agent.wealth == 0:
            return {"to": None}
        with self.agent_streams(actor_id):  # the very draw its own step would make now
            return {"to": int(self.model.random.choice(self.model.agents).unique_id)}


class BoltzmannHeuristic(Controller):
    """Give to the poorest other agent (equalize) or to the richest (concentrate)."""

    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "equalize", **_: Any):
        self.objective = objective

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        key = "poorest" if self.objective == "equalize" else "richest"
        return [Decision(action={"to": r.observation.extra[key]}) for r in requests]
