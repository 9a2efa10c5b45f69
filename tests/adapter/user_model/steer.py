from typing import Literal

from pydantic import BaseModel
from rumour.model import Rumour, informed_share

from mam_bench.adapter import MesaWorld
from mam_bench.controller import Controller
from mam_bench.protocol import Decision
from mam_bench.registry import WorldRegistration
from mam_bench.scoring import Scoring


class Tell(BaseModel):
    informed: Literal["yes", "no"] | None = None


class SteeredRumour(MesaWorld):
    name, model_class, rounds, Action = "rumour", Rumour, 12, Tell
    scoring = Scoring(metric="informed", objectives={"spread": +1, "contain": -1})

    def apply(self, agent, action):
        if action.informed is not None:
            agent.informed = action.informed == "yes"

    def outcome(self):
        return {"informed": informed_share(self.model)}


class Heuristic(Controller):
    def __init__(self, **_):
        pass

    async def decide(self, requests):
        return [Decision(action={"informed": "yes" if self.objective == "spread" else "no"}) for _ in requests]


def portrayal(agent):
    return {"color": "tab:orange" if agent.informed else "tab:gray", "size": 120, "marker": "s"}


registration = WorldRegistration(
    world="rumour.steer:SteeredRumour", heuristic="rumour.steer:Heuristic", renderer="rumour.steer:portrayal"
)
