"""Epstein's civil violence: citizens turn active when grievance outweighs the risk of arrest;
cops jail active citizens in sight. Influence agents are citizens who choose their stance.

Outcomes: active rebels (`incite` raises, `calm` lowers) and jailed citizens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import mesa
from mesa.discrete_space import CellAgent, OrthogonalMooreGrid
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import MesaWorld
from mam_bench.controller import Controller
from mam_bench.protocol import Decision, Request
from mam_bench.scoring import Scoring


# --- an ordinary Mesa model ----------------------------------------------------------------------
class Person(CellAgent):
    def move(self) -> None:
        empty = [c for c in self.cell.get_neighborhood(radius=self.model.vision) if c.is_empty]
        if empty:
            self.cell = self.random.choice(empty)

    def seen(self) -> list[Any]:
        return [a for c in self.cell.get_neighborhood(radius=self.model.vision) for a in c.agents]


class Citizen(Person):
    def __init__(self, model: CivilViolence, cell: Any):
        super().__init__(model)
        self.cell = cell
        self.hardship = self.random.random()
        self.risk_aversion = self.random.random()
        self.grievance = self.hardship * (1 - model.legitimacy)
        self.active = False
        self.jail = 0

    def serve(self) -> bool:
        """A jailed citizen serves a round; True while still jailed."""
        if self.jail == 0:
            return False
        self.jail -= 1
        if self.jail == 0:
            free = [c for c in self.model.grid.all_cells if c.is_empty]
            self.cell = self.random.choice(free)
        return self.jail > 0 or self.cell is None

    def step(self) -> None:
        if self.serve():
            return
        self.move()
        self.active = self.would_be_active()

    def would_be_active(self) -> bool:
        """Epstein's activation rule on what the citizen sees from where it stands."""
        seen = self.seen()
        cops = sum(isinstance(a, Cop) for a in seen)
        active = 1 + sum(isinstance(a, Citizen) and a.active for a in seen)
        p_arrest = 1 - math.exp(-self.model.k * round(cops / active))
        return self.grievance - self.risk_aversion * p_arrest > self.model.threshold


class Cop(Person):
    def __init__(self, model: CivilViolence, cell: Any):
        super().__init__(model)
        self.cell = cell

    def step(self) -> None:
        self.move()
        rebels = [a for a in self.seen() if isinstance(a, Citizen) and a.active]
        if rebels:
            caught = self.random.choice(rebels)
            caught.active = False
            caught.jail = self.random.randint(1, self.model.max_jail)
            caught.cell = None


class CivilViolence(mesa.Model):
    def __init__(
        self,
        size: int = 12,
        citizens: float = 0.7,
        cops: float = 0.04,
        vision: int = 3,
        legitimacy: float = 0.8,
        threshold: float = 0.1,
        k: float = 2.3,
        max_jail: int = 15,
        seed: int | None = None,
    ):
        super().__init__(seed=seed)
        self.vision, self.legitimacy, self.threshold, self.k, self.max_jail = vision, legitimacy, threshold, k, max_jail
        self.grid = OrthogonalMooreGrid((size, size), torus=True, capacity=1, random=self.random)
        for cell in self.grid.all_cells:
            u = self.random.random()
            if u < cops:
                Cop(self, cell)
            elif u < cops + citizens:
                Citizen(self, cell)
        self.datacollector = mesa.DataCollector(model_reporters={"active": active, "jailed": jailed})
        self.datacollector.collect(self)

    def step(self) -> None:
        self.agents.shuffle_do("step")
        self.datacollector.collect(self)


def active(model: mesa.Model) -> int:
    return sum(a.active for a in model.agents_by_type.get(Citizen, []))


def jailed(model: mesa.Model) -> int:
    return sum(a.jail > 0 for a in model.agents_by_type.get(Citizen, []))


# --- its declaration -------------------------------------------------------------------------------
class Stance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    stance: Literal["active", "quiet"] | None = None  # None holds still and keeps the stance

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """Keep the stance (the null action, first), turn active or turn quiet: an LLM's menu."""
        return [{"stance": None}, {"stance": "active"}, {"stance": "quiet"}]

    @classmethod
    def can_act(cls, observation: Any) -> bool:
        """A jailed citizen serves its time whatever it chooses."""
        return observation.extra.get("jailed_rounds", 0) <= 1


class CivilViolenceWorld(MesaWorld):
    name = "civil_violence"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    model_class = CivilViolence
    rounds = 30
    Action = Stance
    scoring = Scoring(
        summary="Epstein's civil violence; influence citizens choose their stance (active rebels)",
        metric="active",
        objectives={"incite": +1, "calm": -1},
        secondary="jailed",
    )
    state_attribute = "condition"
    state_colors = {"active": "#D55E00", "quiet": "#56B4E9", "jailed": "#000000", "cop": "#009E73"}

    def agent_state(self, agent: Any) -> str:
        """What the board shows: cop, jailed, active rebel or quiet citizen."""
        if isinstance(agent, Cop):
            return "cop"
        return "jailed" if agent.jail > 0 else ("active" if agent.active else "quiet")

    def is_actor(self, agent: Any) -> bool:
        return isinstance(agent, Citizen)

    def apply(self, agent: Citizen, action: Stance) -> str | None:
        if agent.serve():
            return "blocked"
        if action.stance is not None:
            agent.active = action.stance == "active"
        return None

    def outcome(self) -> dict[str, float]:
        return {"active": active(self.model), "jailed": jailed(self.model)}

    def observation(self, agent: Citizen) -> dict[str, Any]:
        seen = agent.seen() if agent.cell is not None else []
        return {
            "cops_in_sight": sum(isinstance(a, Cop) for a in seen),
            "active_in_sight": sum(isinstance(a, Citizen) and a.active for a in seen),
            "jailed_rounds": agent.jail,
        }

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """The stance the rule would take now. An influence citizen does not move, so the rule's
        move (its one random draw) is left out: the stance is judged from where it stands."""
        agent = self.actors()[actor_id]
        if agent.jail > 0 or agent.cell is None:
            return {"stance": None}
        return {"stance": "active" if agent.would_be_active() else "quiet"}


class CivilViolenceHeuristic(Controller):
    """Incite: turn active only while no cop is in sight (an arrested rebel incites nobody); calm: stay quiet."""

    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "incite", **_: Any):
        self.objective = objective

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        out = []
        for r in requests:
            bold = self.objective == "incite" and r.observation.extra["cops_in_sight"] == 0
            out.append(Decision(action={"stance": "active" if bold else "quiet"}))
        return out
