"""One round's reservation wave on the frozen start-of-round board.

The Schelling rule is simultaneous: every mover reserves a cell empty at round start, in the
round's seeded order, and all moves settle together afterwards. `Wave` is that round's shared
state as the agents see it (which vacancies are still open, who holds the others); nobody moves
before the settle phase, so the Mesa grid itself is the frozen board. `OrdinaryPlan` is what a
wave decided, the same record on the agent path and on the array fast path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mam_bench.models.schelling.agents import Resident


@dataclass(frozen=True)
class Claim:
    """An influence agent's move to a cell empty at round start, resolved at its own slot in the
    reservation wave (`priority=turn`); `key` in [0, 1) is its order key for the round."""

    actor_id: int
    cell: int
    key: float


@dataclass
class OrdinaryPlan:
    """What the reservation wave decided: who moves where, how many were unhappy, and for each
    influence claim the id that had reserved its cell earlier in the wave (None: accepted)."""

    moves: list[tuple[int, int, int]] = field(default_factory=list)  # (actor id, origin, destination)
    unhappy: int = 0
    claims: dict[int, int | None] = field(default_factory=dict)


class Wave:
    """The round's reservations: vacancies of the frozen board in flat cell order (row-major),
    the ones taken before the wave (`reserved`, flat cells) left out, and who holds each taken one."""

    def __init__(self, model: Any, draws: Any, reserved: set[int] = frozenset()) -> None:
        self.model, self.draws = model, draws
        self.size = model.size
        empty = (cell for cell in model.grid.all_cells if cell.is_empty)
        self.vacancies = sorted(
            (cell for cell in empty if self.flat(cell) not in reserved), key=lambda cell: cell.coordinate
        )
        self._holder: dict[tuple[int, int], Resident] = {}
        self._counts: dict[tuple[int, int], tuple[int, int]] = {}
        self.plan = OrdinaryPlan()

    def flat(self, cell: Any) -> int:
        r, c = cell.coordinate
        return r * self.size + c

    def open_cells(self) -> list[Any]:
        """Vacancies nobody has reserved yet, in flat cell order."""
        return [cell for cell in self.vacancies if cell.coordinate not in self._holder]

    def counts(self, cell: Any) -> tuple[int, int]:
        """(group A, group B) neighbours of `cell` on the frozen board, counted once per round."""
        if cell.coordinate not in self._counts:
            groups = [agent.group for agent in cell.neighborhood.agents]
            self._counts[cell.coordinate] = (groups.count(0), groups.count(1))
        return self._counts[cell.coordinate]

    def reserve(self, agent: Resident, cell: Any) -> None:
        self._holder[cell.coordinate] = agent
        agent.destination = cell
        self.plan.moves.append((agent.actor_id, self.flat(agent.cell), self.flat(cell)))

    def claim(self, agent: Resident, cell: Any) -> None:
        """An influence claim at its slot: the cell if still open, else it fails on the earlier holder."""
        if cell not in self.vacancies:
            cell_id = self.flat(cell)
            raise ValueError(f"claim of {agent.actor_id} for cell {cell_id}, which was not empty at round start")
        holder = self._holder.get(cell.coordinate)
        if holder is None:
            self.reserve(agent, cell)
        self.plan.claims[agent.actor_id] = None if holder is None else holder.actor_id
