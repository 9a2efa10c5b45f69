"""Reproduction mode's prompt: SwarmBench's prompt structure, section by section.

Upstream (`swarmbench/agent.py`) builds one user message in this order: who the agent is, the
task description, the round, the recent vision (current frame first, labelled "Current Step" and
"N Steps Before", a header of right-aligned column indices and rows led by their index, cells
left-aligned in width 4), the task observation as `key: value` lines, the received messages as
`Message: "..."` lines, the action history (rounds counted from 1), then a symbol legend, the
numbered actions (MSG among them), five physics rules, five message rules, three coordinate
rules, and the answer format (analysis, decision, message; `ACTION:` and/or `MSG:`). This module
keeps that structure and those facts in our own words; the task descriptions are the worlds' own.
"""

from __future__ import annotations

from mam_bench.models.swarm.view import SwarmObservation, ViewFrame

ACTION_HELP = {
    "UP": "move one cell up",
    "DOWN": "move one cell down",
    "LEFT": "move one cell left",
    "RIGHT": "move one cell right",
    "STAY": "keep your place",
    "SWITCH": "toggle your light (you do not move this round)",
}
LEGEND = (
    "- A number: the agent with that id (row and column labels are coordinates, not agents).",
    "- Y: you. The other agents see your id in your place.",
    "- W: a wall.",
    "- B: an obstacle that moves only when at least 5 agents push it the same way.",
    "- .: an empty cell you may enter.",
    "- *: outside the map.",
    "Symbols the task description names mean what it says.",
)
PHYSICS = (
    "1. You weigh 1 and push with a force of at most 2.",
    "2. Something moves only when the force pushing it one way is at least its weight.",
    "3. Walls (W) never move; of the objects, only B can be pushed.",
    "4. Force passes between objects that touch: push an agent from behind to help it push.",
    "5. You can only push, never pull or drag sideways: to move an object right, stand on its left and choose RIGHT.",
)
MESSAGE_RULES = (
    "1. A message is text for the other agents.",
    "2. The agents within your view hear your message, and you hear theirs.",
    "3. Messages are broadcast and nobody knows who sent one.",
    "4. Keep a message to what matters and make it unambiguous.",
    '5. A message holds at most 120 characters; the rest becomes "...".',
)
OTHER_RULES = (
    "1. A position is (i, j): i the row, j the column. Your vision shows global coordinates; use them.",
    "2. i grows downward and j grows to the right.",
    "3. An object entirely outside the map (*) is removed.",
)
CLOSING = (
    "Think carefully before you choose; the task needs the other agents' help.\n\n"
    "Your answer should contain:\n1. your analysis of the situation\n2. your decision and why\n"
    "3. your message, if any\n\n"
    'Finish with your choice, written as "ACTION: [YOUR_ACTION]" and/or "MSG: [your message on one line]".'
)


def _frame(f: ViewFrame) -> str:
    width = len(f.cells[0]) if f.cells else 0
    lines = ["   " + " ".join(f"{f.col0 + j:>3}" for j in range(width))]
    lines += [f"{f.row0 + i:>3}  " + "".join(f"{s:<4}" for s in row) for i, row in enumerate(f.cells)]
    return "\n".join(lines) + "\n"


def reproduction_prompt(obs: SwarmObservation, memory: int = 5) -> str:
    """The user message of reproduction mode for one agent."""
    vision = "\n".join(
        f"{'Current Step' if n == 0 else f'{n} Steps Before'}:\n{_frame(f)}" for n, f in enumerate(obs.frames)
    )
    observed = "\n".join(f"{k}: {v}" for k, v in obs.status)
    heard = "".join(f'Message: "{m}"\n' for m in obs.messages)
    history = "".join(f'Round {n}: Action: {a.action}, Message: "{a.message or ""}"\n' for n, a in _numbered(obs))
    actions = [f"{i}. {a}: {ACTION_HELP.get(a, a.lower())}" for i, a in enumerate(obs.allowed, 1)]
    actions.append(f"{len(actions) + 1}. MSG: send a message")
    return "\n".join(
        [
            f"You are Agent {obs.actor_id}, one of several agents sharing a grid world; explore and work "
            "together to complete the task.",
            "",
            "Task description:",
            obs.task_text,
            "",
            f"Round: {obs.round}",
            "",
            f"Your vision over the last {memory} steps (only your surroundings, not the whole map):",
            vision,
            "Your current observation:",
            observed,
            "",
            "Message you received:",
            heard,
            "Your action history:",
            history,
            "Symbol legend:",
            *LEGEND,
            "",
            "Available actions:",
            *actions,
            "",
            "Physics rules:",
            *PHYSICS,
            "",
            "Message rules:",
            *MESSAGE_RULES,
            "",
            "Other rules:",
            *OTHER_RULES,
            "",
            CLOSING,
        ]
    )


def _numbered(obs: SwarmObservation):
    """Upstream counts its history from 1 over the whole game; we keep the last `memory` rows."""
    return ((a.round + 1, a) for a in obs.actions)
