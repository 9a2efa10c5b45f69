"""`episode_end=upstream`: AgentWorld's own episode, as its task runner plays it (agents/run.py and
agents/experiment.py of openagents-org/agentworld).

- The budget: the command line's rounds (`--param rounds=N`), else the task file's `rounds`, else
  55 (upstream's `ExperimentConfig.resolve_max_rounds`: "CLI > YAML > 55"). A task of our own
  format has no `rounds`; its `budget` stands in for it.
- The early stop: after round r, where r >= 5 and r is a multiple of 3 (rounds 6, 9, 12, ...), the
  task's verifier is asked, and a pass ends the episode in success. Upstream's runner also ends it
  once every agent has completed or failed, as `episode_end=complete` does here.

A stopping rule (`stopping_rule()`, checked by the core after every round), never a status set
inside the round.
"""

from __future__ import annotations

from typing import Any

from mam_bench.status import Status

#: upstream's DEFAULT_MAX_ROUNDS
UPSTREAM_ROUNDS = 55
#: upstream asks its verifier after round r when r >= FIRST_CHECK and r % EVERY == 0
FIRST_CHECK, EVERY = 5, 3


def budget(params: Any, task: Any) -> int:
    """The round budget: the rounds given, else (upstream) the task's `rounds` or 55, else the task's."""
    if params.rounds:
        return int(params.rounds)
    if params.episode_end != "upstream":
        return int(task.budget)
    if task.agentworld is not None:
        return int(task.agentworld["file"].get("rounds") or UPSTREAM_ROUNDS)
    return int(task.budget)


def checks_at(round_played: int) -> bool:
    """Whether upstream asks its verifier after this many rounds."""
    return round_played >= FIRST_CHECK and round_played % EVERY == 0


def stopping_rule(world: Any) -> str | None:
    """Upstream's stop after the round just played: its verifier at its cadence (the verdict the
    round's end already asked for: a verifier runs in a child process, once a round), or every
    agent done."""
    if world.ends_at != "upstream":
        return None
    if checks_at(world.round) and world.passed == 1:
        return Status.SUCCESS
    if all(a.offline for a in world.actors):
        return Status.DONE
    return None
