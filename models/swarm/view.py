"""The egocentric k x k view with global coordinate labels, as a structure and as compact text.

`SwarmObservation.to_text()` is the compact form (one token per cell, rows prefixed by their
global index, a header of global column indices); `from_text()` rebuilds the structure from it,
which the tests check. `prompt_text()` is the SwarmBench-style prompt (docs/worlds/swarm.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
from pydantic import BaseModel, ConfigDict

from mam_bench.models.swarm.grid import BOX, OFF_MAP, SELF, SYMBOL


@dataclass
class FrameData:
    """What the world looked like at the start of one round (enough to render any agent's view)."""

    round: int
    terrain: np.ndarray
    pos: np.ndarray
    active: np.ndarray
    alt_state: np.ndarray
    box: frozenset
    marks: dict
    _where: dict | None = field(default=None, repr=False)

    def where(self) -> dict:
        if self._where is None:
            self._where = {(int(r), int(c)): i for i, (r, c) in enumerate(self.pos.tolist()) if self.active[i]}
        return self._where


class ViewFrame(BaseModel):
    model_config = ConfigDict(frozen=True)

    round: int
    row0: int
    col0: int
    cells: tuple[tuple[str, ...], ...]


class ActionRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    round: int
    action: str
    message: str | None = None


def render(frame: FrameData, aid: int, k: int) -> ViewFrame | None:
    """The k x k window centred on `aid` in `frame` (None when the agent was off the map)."""
    if not frame.active[aid]:
        return None
    H, W = frame.terrain.shape
    half = k // 2
    r0, c0 = int(frame.pos[aid, 0]) - half, int(frame.pos[aid, 1]) - half
    where = frame.where()
    rows = []
    for r in range(r0, r0 + k):
        row = []
        for c in range(c0, c0 + k):
            if not (0 <= r < H and 0 <= c < W):
                row.append(OFF_MAP)
                continue
            other = where.get((r, c))
            if other is not None:
                row.append(SELF if other == aid else (f"${other}" if frame.alt_state[other] else str(other)))
            elif (r, c) in frame.box:
                row.append(BOX)
            elif (r, c) in frame.marks:
                row.append(frame.marks[(r, c)])
            else:
                row.append(SYMBOL[int(frame.terrain[r, c])])
        rows.append(tuple(row))
    return ViewFrame(round=frame.round, row0=r0, col0=c0, cells=tuple(rows))


class SwarmObservation(BaseModel):
    """One agent's local observation: views of the last frames, status, messages, own actions."""

    model_config = ConfigDict(frozen=True)

    task: str
    actor_id: int
    round: int
    size: int
    view: int
    max_round: int
    position: tuple[int, int] | None
    score: float
    status: tuple[tuple[str, str], ...] = ()
    #: the task's numbers a controller may read (flocking side/dissimilarity, sync light/period)
    facts: tuple[tuple[str, float], ...] = ()
    frames: tuple[ViewFrame, ...] = ()  # current first
    messages: tuple[str, ...] = ()
    actions: tuple[ActionRecord, ...] = ()
    allowed: tuple[str, ...] = ("UP", "DOWN", "LEFT", "RIGHT", "STAY")
    #: SwarmBench reproduction mode (rules=swarmbench, board off, every agent influence): answers
    #: are read by upstream's parser (`answer.upstream_answer`), which never rejects one
    upstream_answers: bool = False

    task_text: ClassVar[str] = ""

    # --- compact text -------------------------------------------------------------------------
    def to_text(self) -> str:
        pos = "-" if self.position is None else f"{self.position[0]},{self.position[1]}"
        lines = [
            f"swarm {self.task} agent {self.actor_id} round {self.round}/{self.max_round} grid {self.size}"
            f" view {self.view} pos {pos} score {self.score!r}",
            "allowed " + " ".join(self.allowed),
        ]
        if self.upstream_answers:
            lines.append("answers upstream")
        lines += [f"status {k}: {v}" for k, v in self.status]
        lines += [f"fact {k} {v!r}" for k, v in self.facts]
        for f in self.frames:
            lines.append(f"frame {f.round} at {f.row0},{f.col0}")
            lines.append("cols " + " ".join(str(f.col0 + j) for j in range(len(f.cells[0]) if f.cells else 0)))
            lines += [f"{f.row0 + i} " + " ".join(row) for i, row in enumerate(f.cells)]
        lines += ["msg " + json.dumps(m, ensure_ascii=False) for m in self.messages]
        lines += [f"act {a.round} {a.action} " + json.dumps(a.message, ensure_ascii=False) for a in self.actions]
        return "\n".join(lines)

    @classmethod
    def from_text(cls, text: str) -> SwarmObservation:
        lines = text.strip("\n").split("\n")
        h = lines[0].split()
        if h[0] != "swarm":
            raise ValueError("not a swarm observation")
        rnd, max_round = h[5].split("/")
        pos = None if h[11] == "-" else tuple(int(x) for x in h[11].split(","))
        data = dict(
            task=h[1],
            actor_id=int(h[3]),
            round=int(rnd),
            max_round=int(max_round),
            size=int(h[7]),
            view=int(h[9]),
            position=pos,
            score=float(h[13]),
            allowed=tuple(lines[1].split()[1:]),
        )
        status, facts, frames, messages, actions = [], [], [], [], []
        i = 2
        while i < len(lines):
            line = lines[i]
            if line.startswith("status "):
                k, _, v = line[7:].partition(": ")
                status.append((k, v))
            elif line == "answers upstream":
                data["upstream_answers"] = True
            elif line.startswith("fact "):
                _, k, v = line.split(" ", 2)
                facts.append((k, float(v)))
            elif line.startswith("frame "):
                parts = line.split()
                r0, c0 = (int(x) for x in parts[3].split(","))
                k = len(lines[i + 1].split()) - 1
                cells = tuple(tuple(lines[i + 2 + j].split()[1:]) for j in range(k))
                frames.append(ViewFrame(round=int(parts[1]), row0=r0, col0=c0, cells=cells))
                i += 1 + k
            elif line.startswith("msg "):
                messages.append(json.loads(line[4:]))
            elif line.startswith("act "):
                _, r, a, m = line.split(" ", 3)
                actions.append(ActionRecord(round=int(r), action=a, message=json.loads(m)))
            i += 1
        return cls(
            **data,
            status=tuple(status),
            facts=tuple(facts),
            frames=tuple(frames),
            messages=tuple(messages),
            actions=tuple(actions),
        )

    # --- helpers for controllers --------------------------------------------------------------
    def visible(self) -> dict[tuple[int, int], str]:
        """Global cell -> symbol in the current frame."""
        if not self.frames:
            return {}
        f = self.frames[0]
        return {(f.row0 + i, f.col0 + j): s for i, row in enumerate(f.cells) for j, s in enumerate(row)}

    def fact(self, key: str) -> float | None:
        """One of the task's numbers (None when the task gives no such fact)."""
        return dict(self.facts).get(key)

    # --- SwarmBench-style prompt --------------------------------------------------------------
    def prompt_text(self) -> str:
        """The long prompt of upstream `swarmbench/agent.py`, in its order (docs/worlds/swarm.md)."""
        out = [
            f"You are Agent {self.actor_id}, an autonomous agent in a 2D grid world shared with other agents.",
            self.task_text,
            f"Round: {self.round}",
            "",
            f"Vision for the last {len(self.frames)} steps:",
        ]
        for n, f in enumerate(self.frames):
            out.append("Current Step:" if n == 0 else f"{n} Steps Before:")
            width = len(f.cells[0]) if f.cells else 0
            out.append("    " + "".join(f"{f.col0 + j:<4}" for j in range(width)))
            for i, row in enumerate(f.cells):
                out.append(f"{f.row0 + i:<4}" + "".join(f"{s:<4}" for s in row))
        out += ["", "Your current observation:"]
        pos = "escaped" if self.position is None else f"({self.position[0]}, {self.position[1]})"
        out += [f"position: {pos}", f"score: {self.score:g}"] + [f"{k}: {v}" for k, v in self.status]
        out += ["", "Message you received:"]
        out += [f'Message: "{m}"' for m in self.messages] or ["(none)"]
        out += ["", "Your action history:"]
        out += [f'Round {a.round}: Action: {a.action}, Message: "{a.message or ""}"' for a in self.actions] or [
            "(none)"
        ]
        out += [
            "",
            LEGEND,
            "",
            "Available actions: " + ", ".join(self.allowed),
            "",
            PHYSICS,
            "",
            MESSAGES,
            "",
            COORDS,
            "",
            ANSWER,
        ]
        return "\n".join(out)


LEGEND = (
    "Symbols: Y: you; a number: another agent (its id); $number: another agent in the alternate state "
    "(see the task); W: wall; B: pushable obstacle (requires at least 5 agents pushing in the same direction); "
    ".: empty; *: off the map; P: prey; N: nest; F: food."
)
PHYSICS = (
    "Physics: every move pushes with force 2. An agent weighs 1, the big obstacle B weighs 5. A group "
    "moves only if the total force of the agents pushing that way is at least the total mass moving, "
    "the pushers' own mass included: one agent can push one idle agent but not two; agents pushing "
    "head-on block each other; nothing moves into a wall. Directions resolve in the order UP, DOWN, LEFT, RIGHT."
)
MESSAGES = "Messages: at most 120 characters, anonymous, heard next round by agents within your view range."
COORDS = "Coordinates: (row, col); rows grow downward (UP decreases row), columns grow rightward."
ANSWER = (
    "Think step by step, then end your answer with exactly:\nACTION: [one of the available actions]\n"
    "MSG: [a short message or nothing]"
)
