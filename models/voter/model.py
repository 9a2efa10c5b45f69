"""A voter model on a small-world network: each agent copies a random neighbour's opinion.

Influence agents hold the opinion they choose. Outcomes: the share holding opinion 1 (`spread`
raises it, `suppress` lowers it) and the round at which the network reached consensus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import mesa
import networkx as nx
from mesa.discrete_space import CellAgent, Network
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import MesaWorld
from mam_bench.controller import Controller
from mam_bench.models.voter.params import VoterParams
from mam_bench.protocol import Decision, Request
from mam_bench.scoring import Scoring

#: bytes per node and per neighbour of a node in a pair with both baselines (four worlds' Mesa agents,
#: cells and graph, one round's snapshot): `bench/scale.py` measured 2,500 -> 20,000 nodes at k=4
#: adding 279 MB (16 KB a node); half again as a margin
PER_NODE = 16 * 2**10
PER_EDGE = 2 * 2**10


# --- an ordinary Mesa model ----------------------------------------------------------------------
def share(model: mesa.Model) -> float:
    return sum(a.opinion for a in model.agents) / len(model.agents)


class Voter(CellAgent):
    def __init__(self, model: mesa.Model, cell: Any, opinion: int):
        super().__init__(model)
        self.cell = cell
        self.opinion = opinion

    def step(self) -> None:
        neighbours = list(self.cell.neighborhood.agents)
        if neighbours:
            self.opinion = self.random.choice(neighbours).opinion


class VoterModel(mesa.Model):
    def __init__(self, n: int = 60, k: int = 4, p: float = 0.1, initial_share: float = 0.5, seed: int | None = None):
        super().__init__(seed=seed)
        graph = nx.watts_strogatz_graph(n, k, p, seed=self.random.randrange(2**31))
        self.grid = Network(graph, capacity=1, random=self.random)
        for cell in self.grid.all_cells:
            Voter(self, cell, int(self.random.random() < initial_share))
        self.datacollector = mesa.DataCollector(model_reporters={"share": share})
        self.datacollector.collect(self)

    def step(self) -> None:
        self.agents.shuffle_do("step")
        self.datacollector.collect(self)


# --- its declaration -------------------------------------------------------------------------------
class Opinion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    opinion: Literal[0, 1] | None = None  # None keeps the current opinion

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """Keep the opinion (the null action, first), hold 0 or hold 1: an LLM's menu."""
        return [{"opinion": None}, {"opinion": 0}, {"opinion": 1}]


class VoterWorld(MesaWorld):
    name = "voter"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    model_class = VoterModel
    Params = VoterParams
    rounds = 60
    Action = Opinion
    scoring = Scoring(
        summary="voter model on a small-world network; influence agents hold an opinion (share of 1)",
        metric="share",
        objectives={"spread": +1, "suppress": -1},
        secondary="consensus_round",
    )
    state_attribute = "opinion"
    state_colors = {"0": "#0072B2", "1": "#E69F00"}

    def apply(self, agent: Voter, action: Opinion) -> str | None:
        if action.opinion is not None:
            agent.opinion = action.opinion
        return None

    def outcome(self) -> dict[str, float]:
        s = share(self.model)
        if s in (0.0, 1.0) and getattr(self, "consensus_at", None) is None:
            self.consensus_at = self.round
        at = getattr(self, "consensus_at", None)
        # consensus_round is censored at the rounds played while there is no consensus yet
        return {
            "share": s,
            "consensus": float(at is not None),
            "consensus_round": float(self.round if at is None else at),
        }

    def finished(self) -> str | None:
        return "consensus" if share(self.model) in (0.0, 1.0) else None

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        agent = self.actors()[actor_id]
        neighbours = list(agent.cell.neighborhood.agents)
        if not neighbours:
            return {"opinion": None}
        with self.agent_streams(actor_id):
            return {"opinion": int(self.model.random.choice(neighbours).opinion)}


class VoterHeuristic(Controller):
    """Hold the objective's opinion, whatever the neighbours say."""

    name = "heuristic"

    def __init__(self, world_cls: Any = None, objective: str = "spread", **_: Any):
        self.objective = objective

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [Decision(action={"opinion": 1 if self.objective == "spread" else 0}) for _ in requests]
