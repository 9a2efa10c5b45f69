"""A rumour spreads over a grid: a plain Mesa 3 model, as a user would write it."""

import mesa
from mesa.discrete_space import CellAgent, OrthogonalMooreGrid


def informed_share(model):
    return sum(a.informed for a in model.agents) / len(model.agents)


class Person(CellAgent):
    def __init__(self, model, cell, informed):
        super().__init__(model)
        self.cell = cell
        self.informed = informed

    def step(self):
        if self.informed:
            return
        heard = [a for a in self.cell.neighborhood.agents if a.informed]
        if heard and self.random.random() < self.model.p_tell * len(heard) / 8:
            self.informed = True


class Rumour(mesa.Model):
    def __init__(self, size=10, p_tell=0.5, seed=None):
        super().__init__(seed=seed)
        self.p_tell = p_tell
        self.grid = OrthogonalMooreGrid((size, size), torus=True, capacity=1, random=self.random)
        for cell in self.grid.all_cells:
            Person(self, cell, self.random.random() < 0.05)
        self.datacollector = mesa.DataCollector(model_reporters={"informed": informed_share})
        self.datacollector.collect(self)

    def step(self):
        self.agents.shuffle_do("step")
        self.datacollector.collect(self)
