"""What an influence actor sees: the board (a window around it on a large board) and the board's
counts, as a structure and as compact text.

The compact text uses one character per cell (rows prefixed by their index) instead of the
pilot's per-cell labels and vacancy lists; `from_text` decodes it back, which the tests check,
so the compact form carries exactly the information of the structure.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from mam_bench.params import ExactFraction, fraction_text

#: cell characters: vacancy, ordinary satisfied/dissatisfied, influence actor by group
EMPTY, INFLUENCE = ".", ("X", "Y")
ORDINARY = (("A", "a"), ("B", "b"))  # (satisfied, dissatisfied) per group
#: the side of the window an influence actor sees on a board wider than it (a board this wide or
#: narrower is seen whole): what it sees is sized by the world, not by the population
VIEW = 31
LEGEND = ". empty | A B ordinary | a b ordinary dissatisfied | X Y influence actors of group A, B"


class SchellingObservation(BaseModel):
    """The structured view; controllers read `groups`, `dissatisfied` and `threshold`, and `grid`
    is the one-character-per-cell rendering that `to_text` prints."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    round: int
    actor_id: int
    group: str
    row: int
    col: int
    size: int
    threshold: ExactFraction
    objective: str
    oeh: float
    satisfaction: float
    grid: tuple[str, ...]
    #: group per cell, row by row: -1 empty, 0 = A, 1 = B (influence actors included)
    groups: tuple[tuple[int, ...], ...]
    #: dissatisfied ordinary agents per group (A, B)
    dissatisfied: tuple[int, int]
    influence: tuple[tuple[int, str, int, int], ...]  # (id, group, row, col)
    last_outcomes: tuple[tuple[int, str, str], ...] = ()  # (id, outcome, "r,c" or "stay")
    #: how influence moves resolve (the world's `priority`): at the actor's own slot, or before everyone
    priority: Literal["turn", "first"] = "turn"
    #: board (row, col) of the first cell of `grid` and `groups`: a board wider than `VIEW` is seen
    #: through a VIEW x VIEW window around the agent (the counts above stay board-wide)
    origin: tuple[int, int] = (0, 0)

    # --- derived views for controllers --------------------------------------------------------
    @property
    def whole(self) -> bool:
        """The view is the whole board (the torus wraps inside it)."""
        return len(self.grid) == self.size

    def board_cell(self, i: int, j: int) -> tuple[int, int]:
        """The board coordinate of the view's cell (i, j)."""
        return (self.origin[0] + i) % self.size, (self.origin[1] + j) % self.size

    def view_cell(self, r: int, c: int) -> tuple[int, int] | None:
        """The view's cell of board coordinate (r, c), None when it lies outside the view."""
        i, j = (r - self.origin[0]) % self.size, (c - self.origin[1]) % self.size
        return (i, j) if i < len(self.grid) and j < len(self.grid) else None

    def group_at(self, r: int, c: int) -> int | None:
        """Group at a board coordinate (-1 empty), None outside the view."""
        at = self.view_cell(r, c)
        return None if at is None else self.groups[at[0]][at[1]]

    def char_at(self, r: int, c: int) -> str | None:
        """The cell's character at a board coordinate, None outside the view."""
        at = self.view_cell(r, c)
        return None if at is None else self.grid[at[0]][at[1]]

    def vacancies(self) -> list[tuple[int, int]]:
        """The empty cells in view, as board coordinates."""
        return [self.board_cell(i, j) for i, line in enumerate(self.grid) for j, ch in enumerate(line) if ch == EMPTY]

    def to_text(self) -> str:
        width = len(str(self.size - 1))
        span = len(self.grid)
        window = (
            ""
            if self.whole
            else f" | window {span}x{span} from {self.origin[0]},{self.origin[1]}"
            f" | dissatisfied A {self.dissatisfied[0]} B {self.dissatisfied[1]}"
        )
        lines = [
            f"round {self.round} | you {self.actor_id} group {self.group} at {self.row},{self.col}"
            f" | threshold {fraction_text(self.threshold)} | objective {self.objective}"
            f" | oeh {self.oeh:.4f} | satisfaction {self.satisfaction:.4f}",
            f"legend: {LEGEND}; row,col 0-based; board {self.size}x{self.size} torus | priority {self.priority}"
            + window,
        ]
        lines += [f"{self.board_cell(i, 0)[0]:0{width}d} {line}" for i, line in enumerate(self.grid)]
        lines.append("influence: " + " ".join(f"{i}{g}@{r},{c}" for i, g, r, c in self.influence))
        if self.last_outcomes:
            lines.append("last: " + " ".join(f"{i}:{o}@{t}" for i, o, t in self.last_outcomes))
        return "\n".join(lines)

    def to_naive_text(self) -> str:
        """The pilot-style rendering (per-cell labels, vacancy list): the baseline we compress."""
        labels = {(r, c): f"{g.lower()}{i}" for i, g, r, c in self.influence}
        rows = []
        for r, line in enumerate(self.grid):
            cells = [
                labels.get((r, c), ch.upper() if ch not in (EMPTY, *INFLUENCE) else ch) for c, ch in enumerate(line)
            ]
            rows.append(f'"row {r}": "' + " ".join(cells) + '"')
        vac = ", ".join(f'"{r},{c}"' for r, c in self.vacancies())
        unhappy = [f"{r},{c}" for r, line in enumerate(self.grid) for c, ch in enumerate(line) if ch in "ab"]
        return "\n".join(
            [
                f'{{"round": {self.round}, "actor": {self.actor_id}, "group": "{self.group}", '
                f'"position": "{self.row},{self.col}", "preference": "{self.threshold}", '
                f'"objective": "{self.objective}", '
                f'"oeh": {self.oeh:.4f}, "satisfaction": {self.satisfaction:.4f},',
                *rows,
                f'"vacancies": [{vac}],',
                '"influence_actors": [' + ", ".join(f'"{i}:{g}@{r},{c}"' for i, g, r, c in self.influence) + "],",
                '"dissatisfied_ordinary_agents": [' + ", ".join(f'"{u}"' for u in unhappy) + "]}",
            ]
        )

    @classmethod
    def from_text(cls, text: str) -> SchellingObservation:
        lines = text.strip().splitlines()
        head = re.match(
            r"round (\d+) \| you (\d+) group (\w) at (\d+),(\d+) \| threshold (\S+) \| objective (\S+)"
            r" \| oeh ([\d.]+) \| satisfaction ([\d.]+)",
            lines[0],
        )
        if not head:
            raise ValueError("not a Schelling observation header")
        size = int(re.search(r"board (\d+)x", lines[1]).group(1))
        priority = re.search(r"\| priority (\w+)", lines[1]).group(1)
        window = re.search(r"\| window (\d+)x\d+ from (\d+),(\d+)", lines[1])
        span, origin = (
            (int(window.group(1)), (int(window.group(2)), int(window.group(3)))) if window else (size, (0, 0))
        )
        grid = tuple(line.split(" ", 1)[1] for line in lines[2 : 2 + span])
        influence: list[tuple[int, str, int, int]] = []
        last: list[tuple[int, str, str]] = []
        for line in lines[2 + span :]:
            key, _, rest = line.partition(": ")
            for tok in rest.split():
                if key == "influence":
                    m = re.fullmatch(r"(\d+)([AB])@(\d+),(\d+)", tok)
                    influence.append((int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))))
                elif key == "last":
                    m = re.fullmatch(r"(\d+):(\w+)@(\S+)", tok)
                    last.append((int(m.group(1)), m.group(2), m.group(3)))
        g = head.groups()
        cell_group = {EMPTY: -1, INFLUENCE[0]: 0, INFLUENCE[1]: 1}
        for k, chars in enumerate(ORDINARY):
            cell_group.update({ch: k for ch in chars})
        groups = tuple(tuple(cell_group[ch] for ch in line) for line in grid)
        unhappy = tuple(sum(line.count(ORDINARY[k][1]) for line in grid) for k in range(2))
        if window:  # a window cannot be counted: the board's counts are written out
            counts = re.search(r"\| dissatisfied A (\d+) B (\d+)", lines[1])
            unhappy = (int(counts.group(1)), int(counts.group(2)))
        return cls(
            round=int(g[0]),
            actor_id=int(g[1]),
            group=g[2],
            row=int(g[3]),
            col=int(g[4]),
            size=size,
            threshold=g[5],
            objective=g[6],
            oeh=float(g[7]),
            satisfaction=float(g[8]),
            grid=grid,
            groups=groups,
            dissatisfied=unhappy,
            influence=tuple(influence),
            last_outcomes=tuple(last),
            priority=priority,
            origin=origin,
        )


def render_grid(grid: Any, types: Any, satisfied: Any, influence: set[int]) -> tuple[str, ...]:
    """Rows of cell characters from the id grid, the group of each id and a satisfied mask."""
    grid = np.asarray(grid)
    group = np.asarray(types)[np.maximum(grid, 0)]
    steered = np.isin(grid, np.fromiter(influence, dtype=np.int64, count=len(influence))) & (grid >= 0)
    # code: 0 empty, 1 + 2 * group + dissatisfied for ordinary agents, 5 + group for influence agents
    code = np.where(grid < 0, 0, np.where(steered, 5 + group, 1 + 2 * group + ~np.asarray(satisfied, dtype=bool)))
    table = np.array([EMPTY, *ORDINARY[0], *ORDINARY[1], *INFLUENCE])
    return tuple("".join(row) for row in table[code].tolist())
