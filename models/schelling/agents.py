"""Schelling residents, whose rule is their own two-phase Mesa step (docs/worlds/schelling.md, "The ordinary rule").

The rule is simultaneous: in the round's seeded order (`draws`), each dissatisfied resident
reserves the nearest vacancy of the frozen start-of-round board that would satisfy it, its own
origin counted as empty, breaking ties with its own draw (`decide`); then everyone moves
together (`apply`). This is the reference. The world's rounds run the same rule on arrays
(`fast/array_rule.py`) for speed, held to this one bit for bit by tests.
"""

from __future__ import annotations

from typing import Any

from mesa.discrete_space import CellAgent

from mam_bench.models.schelling.wave import Wave

GROUPS = ("A", "B")


def torus_distance(a: tuple[int, int], b: tuple[int, int], size: int) -> int:
    """Chebyshev distance between two coordinates of a size x size torus."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(min(dr, size - dr), min(dc, size - dc))


class Resident(CellAgent):
    """One resident; `actor_id` is the benchmark identity (ids < n_a are group A)."""

    def __init__(self, model, cell, actor_id: int, group: int, influence: bool) -> None:
        super().__init__(model)
        self.cell = cell
        self.actor_id = actor_id
        self.group = group
        self.influence = influence
        self.satisfied = True
        #: an influence agent's own move this round (a cell empty at round start), tried at its slot
        self.claim: Any = None
        #: the cell reserved this round, entered when the round settles
        self.destination: Any = None

    def content_with(self, same: int, occupied: int) -> bool:
        """The threshold, compared exactly: an agent with no occupied neighbour is satisfied."""
        return occupied == 0 or same * self.model.den >= self.model.num * occupied

    def is_satisfied(self) -> bool:
        groups = [agent.group for agent in self.cell.neighborhood.agents]
        return self.content_with(groups.count(self.group), len(groups))

    def would_be_satisfied(self, cell: Any, wave: Wave) -> bool:
        """At `cell` of the frozen board, my own origin counted as empty."""
        counts = wave.counts(cell)
        same, occupied = counts[self.group], counts[0] + counts[1]
        if torus_distance(self.cell.coordinate, cell.coordinate, wave.size) == 1:
            same, occupied = same - 1, occupied - 1
        return self.content_with(same, occupied)

    def improving(self, open_cells: list[Any], size: int) -> list[Any]:
        """rule=pilot_v2: open cells within my vision whose neighbourhood, as I can see it from
        here (my origin and unseen cells left out), promises a strictly higher same-group share than
        I have now; a cell with no occupied neighbour in sight promises a share of one."""
        model, here = self.model, self.cell.coordinate
        radius = model.params.vision
        groups = [agent.group for agent in self.cell.neighborhood.agents]
        now_same, now_all = groups.count(self.group), len(groups)
        found = []
        for cell in open_cells:
            if torus_distance(here, cell.coordinate, size) > radius:
                continue
            same = seen = 0
            for near in cell.neighborhood:
                if near is self.cell or torus_distance(here, near.coordinate, size) > radius:
                    continue
                occupant = int(model.board[near.coordinate])
                if occupant >= 0:
                    seen += 1
                    same += int(model.types[occupant]) == self.group
            if seen == 0:
                same = seen = 1
            if same * now_all > now_same * seen:
                found.append(cell)
        return found

    def choices(self, wave: Wave) -> list[Any]:
        """The open vacancies the rule picks among, in flat cell order: the nearest that would
        satisfy me (`nearest_satisfactory`) or every open one (`random_empty`)."""
        open_cells = wave.open_cells()
        if self.model.params.move_rule == "random_empty":
            return open_cells
        if self.model.params.rule == "pilot_v2":
            fits = self.improving(open_cells, wave.size)
        else:
            fits = [cell for cell in open_cells if self.would_be_satisfied(cell, wave)]
        dist = [torus_distance(self.cell.coordinate, cell.coordinate, wave.size) for cell in fits]
        nearest = min(dist, default=0)
        return [cell for cell, d in zip(fits, dist) if d == nearest]

    def decide(self, wave: Wave) -> None:
        """My slot in the wave: an influence claim takes its cell if nobody reserved it earlier;
        the rule reserves one of my choices, ties broken by my own draw."""
        if self.claim is not None:
            wave.claim(self, self.claim)
            return
        choices = self.choices(wave)
        if choices:
            wave.reserve(self, choices[wave.draws.tie(self.actor_id, len(choices))])

    def apply(self) -> None:
        """Move to the reserved cell. Every destination was empty at round start and is held by
        one agent only, so the moves of a round settle in any order with the same result."""
        if self.destination is not None:
            self.cell = self.destination
            self.destination = None
