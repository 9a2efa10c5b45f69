"""A user-style world for the browser tests: a plain Mesa SIR epidemic on a grid, made steerable
in a few lines, with no renderer and no declared state (the board must find `state` itself)."""

from typing import Literal

import mesa
from mesa.discrete_space import CellAgent, OrthogonalMooreGrid
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import MesaWorld
from mam_bench.controller import Controller
from mam_bench.protocol import Decision
from mam_bench.registry import WorldRegistration
from mam_bench.scoring import Scoring


def infected_share(model):
    return sum(a.state == "I" for a in model.agents) / len(model.agents)


def ever_infected(model):
    return sum(a.state != "S" for a in model.agents) / len(model.agents)


class Person(CellAgent):
    def __init__(self, model, cell, state):
        super().__init__(model)
        self.cell, self.state, self.days = cell, state, 0

    def step(self):
        if self.state == "I":
            self.days += 1
            for other in self.cell.neighborhood.agents:
                if other.state == "S" and self.random.random() < self.model.beta:
                    other.state = "I"
            if self.days >= self.model.sick_days:
                self.state = "R"


class Epidemic(mesa.Model):
    def __init__(self, size=12, beta=0.25, sick_days=4, seed=None):
        super().__init__(seed=seed)
        self.beta, self.sick_days = beta, sick_days
        self.grid = OrthogonalMooreGrid((size, size), torus=True, capacity=1, random=self.random)
        for cell in self.grid.all_cells:
            Person(self, cell, "S")
        for person in self.random.sample(list(self.agents), 3):
            person.state = "I"

    def step(self):
        self.agents.shuffle_do("step")


class Vaccinate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    vaccinate: Literal["yes", "no"] | None = None  # "no": expose (infect) a susceptible agent


class SteeredEpidemic(MesaWorld):
    name, model_class, rounds, Action = "epidemic", Epidemic, 20, Vaccinate
    scoring = Scoring(metric="ever_infected", objectives={"contain": -1, "spread": +1}, default_influence=12)

    def apply(self, agent, action):
        if action.vaccinate == "yes" and agent.state == "S":
            agent.state = "R"
        elif action.vaccinate == "no" and agent.state == "S":
            agent.state = "I"

    def outcome(self):
        return {"ever_infected": ever_infected(self.model), "infected": infected_share(self.model)}


class Heuristic(Controller):
    name = "heuristic"

    def __init__(self, world_cls=None, objective="contain", **_):
        self.objective = objective

    async def decide(self, requests):
        return [Decision(action={"vaccinate": "yes" if self.objective == "contain" else "no"}) for _ in requests]


registration = WorldRegistration(world="sir:SteeredEpidemic", heuristic="sir:Heuristic")
