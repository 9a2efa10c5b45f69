"""Synchronization rule agents (docs/worlds/swarm.md): gather, local strict-majority vote, shared clock."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.models.swarm.grid import manhattan
from mam_bench.models.swarm.navigation import LazyRng, toward, wander


class Intent(NamedTuple):
    """What one agent's view says, before any random draw."""

    switch: bool  # the clock strikes, or my light differs from the strict majority in view
    alone: bool  # nobody else in view: wander
    goal: tuple[int, int]  # the rounded centre of the agents in view, myself included


def sync_intents(
    round_: int, period: int, vote: bool, pos: np.ndarray, lights: np.ndarray, visible: np.ndarray
) -> list[Intent]:
    """Every agent's Intent in one pass over the visibility matrix (visible[i, j]: i sees j).

    Counts and centres are integer sums, so each agent's vote and mean position are exactly
    what it would compute from its own view.
    """
    n = len(pos)
    if (round_ + 1) % period == 0:
        return [Intent(True, False, (0, 0))] * n
    counts = visible.astype(np.int64)
    seen = counts.sum(axis=1)
    switch = np.zeros(n, dtype=bool)
    if vote:
        on = counts @ lights.astype(np.int64)
        off = seen - on
        switch = (on != off) & (lights != (on > off))
    alone = seen - counts.diagonal() == 0
    centre = (counts @ pos) / np.maximum(seen, 1)[:, None]  # a live agent sees itself: seen >= 1
    goals = np.rint(centre).astype(np.int64)
    return [Intent(s, a, (r, c)) for s, a, (r, c) in zip(switch.tolist(), alone.tolist(), goals.tolist(), strict=True)]


def sync_rule(here: tuple[int, int], intent: Intent, passable: np.ndarray, rng: LazyRng, recent) -> str:
    """SWITCH on the clock or when my light differs from the strict majority in view; else gather."""
    if intent.switch:
        return "SWITCH"
    if intent.alone:
        return wander(here, recent, passable, rng)
    if manhattan(here, intent.goal) <= 1:
        return "STAY"
    return toward(here, intent.goal, passable, rng)


class SynchronizationAgent(SwarmAgent):
    """Gathers with the agents it sees, sides with their strict majority, and keeps the clock."""

    def look(self) -> Intent:
        """My Intent from my own view: the reference `sync_intents` computes for all at once."""
        w = self.model
        if (w.round + 1) % w.params.period == 0:
            return Intent(True, False, (0, 0))
        seen = np.flatnonzero(w.active & (np.abs(w.pos - w.pos[self.actor_id]).max(axis=1) <= w.reach))
        on = int(w.lights[seen].sum())
        off = len(seen) - on
        switch = w.params.strategy == "vote" and on != off and bool(w.lights[self.actor_id]) != (on > off)
        goal = np.rint(w.pos[seen].sum(axis=0) / len(seen)).astype(np.int64)
        return Intent(switch, len(seen) == 1, (int(goal[0]), int(goal[1])))

    def rule(self, plan: Any, rng: LazyRng) -> tuple[str, str | None]:
        intents = plan.get("intents")
        intent = self.look() if intents is None else intents[self.actor_id]
        return sync_rule(self.here, intent, plan["passable"], rng, self.recent), None
