"""SwarmAgent: one swarm agent, whose rule is its own `decide`.

Swarm rounds are simultaneous, so a round has two phases: every rule agent decides from the
start-of-round state (what it may see, its own addressed stream) and moves nothing; then the
world resolves all actions together (physics, the task rule). Deciding changes no state, so
the order agents decide in cannot matter. The world's arrays hold the swarm's state; an agent
reads its own row of them.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from mesa.discrete_space import CellAgent

from mam_bench.models.swarm.navigation import LazyRng

if TYPE_CHECKING:
    from mam_bench.models.swarm.base import SwarmWorld


class SwarmAgent(CellAgent):
    """Each task subclasses it with its `rule`; `decide` is the same for all."""

    model: SwarmWorld

    def __init__(self, model: SwarmWorld, cell: Any, actor_id: int) -> None:
        super().__init__(model)
        self.cell = cell
        self.actor_id = actor_id
        self.influence = actor_id in model.run.influence_ids
        self.escaped = False
        #: the cells this agent stood on lately (a walk prefers others); the world appends to it
        self.recent: deque = model.recent[actor_id]
        #: an influence agent whose controller chose its action this round (it skips the rule)
        self.steered = False
        #: what this agent chose in the decide phase (None: it did not decide)
        self.action: str | None = None
        self.message: str | None = None

    @property
    def cell(self) -> Any:
        """Its Mesa cell (a fork builds its grid on first read: `SwarmWorld.grid`)."""
        if self._mesa_cell is None and self.model._grid is None:
            self.model.grid  # noqa: B018 - builds the mirror, which places this agent
        return self._mesa_cell

    @cell.setter
    def cell(self, cell: Any) -> None:
        CellAgent.cell.fset(self, cell)

    @property
    def here(self) -> tuple[int, int]:
        r, c = self.model.pos[self.actor_id].tolist()
        return r, c

    def stream(self) -> LazyRng:
        """This round's policy stream of this agent (seed, "policy", round, id), made only if drawn."""
        draws, aid = self.model.policy_draws(), self.actor_id
        return LazyRng(lambda: draws.of(aid))

    def decide(self, plan: Any) -> None:
        """Phase one of the round: choose an action from the start-of-round state; move nothing."""
        if self.escaped or self.steered:
            self.action = self.message = None
            return
        draws, aid = self.model.draws, self.actor_id  # `stream()`, set up once for the whole swarm
        action, message = self.rule(plan, LazyRng(lambda: draws.of(aid)))
        self.action = action
        self.message = None if message is None else self.model.clip(message)

    def rule(self, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        """The ordinary (action, message); `plan` is the start-of-round data all agents share."""
        raise NotImplementedError
