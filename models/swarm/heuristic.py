"""Hand-written help/hinder controllers for the SwarmBench worlds: the bar an LLM must clear.

They see exactly what an LLM sees (the local observation, messages included), never the world.
Pursuit: help = the influence agents, deciding as one team (as through the shared board), hem the
prey in from its diagonal cells and keep off its sides, so that ordinary agents close the cage
(only their catches count for help);
hinder = shove agents that hold a side of the prey sideways, and never hold one.
Flocking: help = follow the rule until my view has been frozen for 3 frames short of the square
(a jam), then fill a hole (<= 2 steps) of the best-filled visible outline or step aside;
hinder = follow the rule, but hold any slot of the outline the others are forming (a slot I
hold is one no ordinary agent fills); shoving agents off it steered the wrong way.
Synchronization: help = the team takes the light most agents it sees share, flips with the clock
and stands by agents that still disagree (the deciding vote in their view);
hinder = keep my light opposite the swarm (clock included).
Foraging / Transport: hinder = sit on the food's pick-up cells / against the box as dead weight.
Where no real help exists, help defers to the rule (lift 0 is the honest floor).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mam_bench.controller import Controller
from mam_bench.errors import ConfigError
from mam_bench.models.swarm.grid import DELTA, MOVES, chebyshev, manhattan
from mam_bench.models.swarm.view import SwarmObservation
from mam_bench.protocol import Decision, Request
from mam_bench.streams import stream

Cell = tuple[int, int]


def _is_agent(sym: str) -> bool:
    return sym.lstrip("$").isdigit()


def _agents(obs: SwarmObservation) -> dict[Cell, str]:
    return {c: s for c, s in obs.visible().items() if _is_agent(s)}


def _free(obs: SwarmObservation, cell: Cell) -> bool:
    return obs.visible().get(cell, ".") == "."


def _step(obs: SwarmObservation, goal: Cell, rng: np.random.Generator, avoid: set[Cell] = frozenset()) -> str:
    """A Manhattan step toward `goal` into a free visible cell; a sideways step if blocked."""
    here = obs.position
    if here is None or here == goal:
        return "STAY"
    good, side = [], []
    for m in MOVES:
        dr, dc = DELTA[m]
        t = (here[0] + dr, here[1] + dc)
        if not _free(obs, t) or t in avoid:
            continue
        (good if manhattan(t, goal) < manhattan(here, goal) else side).append(m)
    options = good or side
    return options[int(rng.integers(len(options)))] if options else "STAY"


def _wander(obs: SwarmObservation, rng: np.random.Generator) -> str:
    centre = (obs.size // 2, obs.size // 2)
    if obs.position and manhattan(obs.position, centre) > 2 and rng.random() < 0.6:
        return _step(obs, centre, rng)
    options = [
        m for m in MOVES if obs.position and _free(obs, (obs.position[0] + DELTA[m][0], obs.position[1] + DELTA[m][1]))
    ]
    return options[int(rng.integers(len(options)))] if options else "STAY"


def _sides(cell: Cell) -> list[Cell]:
    return [(cell[0] + DELTA[m][0], cell[1] + DELTA[m][1]) for m in MOVES]


def _move_from(a: Cell, b: Cell) -> str:
    d = (b[0] - a[0], b[1] - a[1])
    return next(m for m in MOVES if DELTA[m] == d)


# --- pursuit ---------------------------------------------------------------------------------------
def _prey(obs: SwarmObservation) -> Cell | None:
    """The prey in my current view (message text is never parsed: it is for the LLMs)."""
    for c, s in obs.visible().items():
        if s == "P":
            return c
    return None


#: the team hems the prey in once this many of its sides are closed (ordinary agents or walls)
HEM_FROM = 3
#: ... and only members within this many steps of it (the others hold still, out of the way)
HEM_REACH = 4


def _corners(cell: Cell) -> list[Cell]:
    return [(cell[0] + dr, cell[1] + dc) for dr in (-1, 1) for dc in (-1, 1)]


def pursuit_help_batch(observations: Sequence[SwarmObservation], rngs: Sequence[np.random.Generator]) -> list[Decision]:
    """Hem the prey in for the ordinary agents, never close the cage myself.

    A catch counts for `help` only when ordinary agents and walls close the prey in, so an
    influence agent must not hold a side of the prey. The team (pooled through the board) takes
    the prey's diagonal cells instead, one each: a body there blocks the prey's two-step escapes and
    raises the threat it flees from, without filling a side. An agent on a side steps off to a
    free diagonal (else away); an agent that does not see the prey follows the swarm's rule.
    """
    out: list[Decision] = [Decision(action={"action": "STAY"}) for _ in observations]
    taken: set[Cell] = set()
    for k, (obs, rng) in enumerate(zip(observations, rngs)):
        prey, here = _prey(obs), obs.position
        if prey is None or here is None:
            continue
        sides, corners = set(_sides(prey)), _corners(prey)
        vis = obs.visible()
        closed = sum(1 for c in sides if vis.get(c, "*") != ".")
        if here in corners and here not in taken:
            taken.add(here)
            continue
        if here in sides:
            free = [c for c in corners if c not in taken and _free(obs, c) and manhattan(here, c) == 1]
            goal = free[0] if free else (2 * here[0] - prey[0], 2 * here[1] - prey[1])
            if free:
                taken.add(goal)
            out[k] = Decision(action={"action": _step(obs, goal, rng, avoid=sides)})
            continue
        if closed < HEM_FROM or manhattan(here, prey) > HEM_REACH:
            continue
        free = [c for c in corners if c not in taken and _free(obs, c)]
        if free:
            goal = min(free, key=lambda c: (manhattan(here, c), c))
            taken.add(goal)
            out[k] = Decision(action={"action": _step(obs, goal, rng, avoid=sides)})
    return out


def pursuit_help(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    return pursuit_help_batch([obs], [rng])[0]


def pursuit_hinder(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    prey = _prey(obs)
    here = obs.position
    if here is None:
        return Decision(action={"action": "STAY"})
    if prey is None:
        return Decision(action={"action": _wander(obs, rng)})
    slots = set(_sides(prey))
    vis = obs.visible()
    if here in slots:  # never help close the cage
        away = [
            m
            for m in MOVES
            if _free(obs, (here[0] + DELTA[m][0], here[1] + DELTA[m][1]))
            and (here[0] + DELTA[m][0], here[1] + DELTA[m][1]) not in slots
        ]
        return Decision(action={"action": away[0] if away else "STAY"})
    targets = []
    for x in slots:
        if _is_agent(vis.get(x, "")):
            axis = (x[0] - prey[0], x[1] - prey[1])
            for perp in ((axis[1], axis[0]), (-axis[1], -axis[0])):
                stand = (x[0] + perp[0], x[1] + perp[1])
                if stand == here:
                    return Decision(action={"action": _move_from(here, x)})
                if _free(obs, stand) and stand not in slots:
                    targets.append(stand)
    if targets:
        goal = min(targets, key=lambda c: (manhattan(here, c), c))
        return Decision(action={"action": _step(obs, goal, rng, avoid=slots)})
    return Decision(
        action={
            "action": "STAY"
            if manhattan(here, prey) > 2
            else _step(obs, (2 * here[0] - prey[0], 2 * here[1] - prey[1]), rng, avoid=slots)
        }
    )


# --- flocking --------------------------------------------------------------------------------------
def _side(obs: SwarmObservation) -> int:
    side = obs.fact("side")
    return int(side) if side is not None else 3


def _outline(top: Cell, side: int) -> list[Cell]:
    return [
        (top[0] + r, top[1] + c) for r in range(side) for c in range(side) if r in (0, side - 1) or c in (0, side - 1)
    ]


def _best_outline(obs: SwarmObservation, me: bool = True) -> list[Cell] | None:
    """The visible outline holding the most agents (me among them unless `me` is False), nearest first."""
    side, here = _side(obs), obs.position
    agents = set(_agents(obs)) | ({here} if me else set())
    vis = obs.visible()
    best, key = None, None
    for r in range(here[0] - side + 1, here[0] + side):
        for c in range(here[1] - side + 1, here[1] + side):
            cells = _outline((r, c), side)
            if any(vis.get(x, ".") in ("W", "*") for x in cells):
                continue
            k = (sum(x in agents for x in cells), -manhattan(here, (r, c)), -r, -c)
            if key is None or k > key:
                best, key = cells, k
    return best


def _stuck(obs: SwarmObservation, frames: int = 3) -> bool:
    """My view has not changed for `frames` frames (the swarm around me is deadlocked)."""
    return len(obs.frames) >= frames and all(
        f.cells == obs.frames[0].cells and f.row0 == obs.frames[0].row0 and f.col0 == obs.frames[0].col0
        for f in obs.frames[1:frames]
    )


def _dissimilarity(obs: SwarmObservation) -> float | None:
    return obs.fact("dissimilarity")


def flocking_help(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    """Follow the rule while the swarm converges; break a deadlock when it stalls short of the square.

    The rule's nearest-slot agents can jam (two agents shoving toward one hole from both sides,
    an extra agent parked on the outline's only open cell); the score is the best dissimilarity
    ever reached, so once my view has been frozen for 3 frames while the status still reports a
    dissimilarity above 0, moving costs nothing: fill a hole of the best visible outline, or else
    step aside at random to unjam the pushers.
    """
    here = obs.position
    dis = _dissimilarity(obs)
    if here is None or not dis or not _stuck(obs):
        return Decision.follow_rule()
    if _side(obs) <= obs.view and _agents(obs):
        cells = _best_outline(obs)
        if cells is not None and here not in cells:
            holes = [x for x in cells if _free(obs, x) and manhattan(here, x) <= 2]
            if holes:
                goal = min(holes, key=lambda x: (manhattan(here, x), x))
                return Decision(action={"action": _step(obs, goal, rng)})
    options = [m for m in MOVES if _free(obs, (here[0] + DELTA[m][0], here[1] + DELTA[m][1]))]
    return Decision(action={"action": options[int(rng.integers(len(options)))] if options else "STAY"})


def flocking_hinder(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    """Take the slots the swarm heads for, then hold them.

    The score counts the ordinary agents' own fit, and an influence agent on the outline fills no
    slot of it: a slot I hold is one no ordinary agent can fill. The rule already walks me to the
    nearest open slot, so follow it until I stand on the best visible outline, then stay there.
    """
    here = obs.position
    if here is None:
        return Decision(action={"action": "STAY"})
    cells = _best_outline(obs, me=False) if _agents(obs) and _side(obs) <= obs.view else None
    if cells and here in cells:
        return Decision(action={"action": "STAY"})
    return Decision.follow_rule()


# --- synchronization -------------------------------------------------------------------------------
def sync_hinder(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    """Keep my light opposite the swarm; the clock period is the world's (observation fact)."""
    period = int(obs.fact("period") or 10)
    mine = bool(obs.fact("light_on"))
    agents = _agents(obs)
    on = sum(1 for s in agents.values() if not s.startswith("$"))
    off = len(agents) - on
    majority = mine if on == off else on > off
    clock = (obs.round + 1) % period == 0  # the swarm flips this round: flip with it to stay apart
    switch = (mine == majority) != clock
    return Decision(action={"action": "SWITCH" if switch else "STAY"})


def _lights(obs: SwarmObservation) -> dict[int, bool]:
    """Agent id -> light on, for every agent in my current view, me included ($id = light off)."""
    seen = {int(s.lstrip("$")): not s.startswith("$") for s in _agents(obs).values()}
    return {**seen, obs.actor_id: bool(obs.fact("light_on"))}


def sync_help_batch(observations: Sequence[SwarmObservation], rngs: Sequence[np.random.Generator]) -> list[Decision]:
    """Be the deciding vote: the team adopts the light most agents it sees share, then walks to dissenters.

    An ordinary agent SWITCHes only to a strict majority in its view, so a dissenter in a tie or
    in a small group never joins the rest. The influence agents pool what they see (the board),
    take the majority light as the team's, flip with the swarm's clock, and stand next to an
    agent that still disagrees (one more vote breaks its tie); with no dissenter in view they
    roam to find stragglers.
    """
    period = int(observations[0].fact("period") or 10)
    if (observations[0].round + 1) % period == 0:  # the shared clock: flip with the swarm
        return [Decision(action={"action": "SWITCH"}) for _ in observations]
    pooled: dict[int, bool] = {}
    for obs in observations:
        pooled.update(_lights(obs))
    target = 2 * sum(pooled.values()) >= len(pooled)
    out = []
    for obs, rng in zip(observations, rngs):
        here = obs.position
        if here is None:
            out.append(Decision(action={"action": "STAY"}))
        elif bool(obs.fact("light_on")) != target:
            out.append(Decision(action={"action": "SWITCH"}))
        else:
            against = [c for c, s in _agents(obs).items() if (not s.startswith("$")) != target]
            if not against:
                out.append(Decision(action={"action": _wander(obs, rng)}))
                continue
            goal = min(against, key=lambda c: (manhattan(here, c), c))
            near = chebyshev(here, goal) <= 1
            out.append(Decision(action={"action": "STAY" if near else _step(obs, goal, rng)}))
    return out


def sync_help(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    return sync_help_batch([obs], [rng])[0]


# --- foraging / transport --------------------------------------------------------------------------
def _dead_weight(symbol: str) -> Callable[[SwarmObservation, np.random.Generator], Decision]:
    """Go next to the named object and stay there (blocks pick-up cells or adds mass to pushes)."""

    def hinder(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
        if obs.position is None:
            return Decision(action={"action": "STAY"})
        targets = [c for c, s in obs.visible().items() if s == symbol]
        if not targets:
            return Decision(action={"action": _wander(obs, rng)})
        if any(t in _sides(obs.position) for t in targets):
            return Decision(action={"action": "STAY"})
        spots = [x for t in targets for x in _sides(t) if _free(obs, x)]
        if not spots:
            return Decision(action={"action": "STAY"})
        goal = min(spots, key=lambda x: (manhattan(obs.position, x), x))
        return Decision(action={"action": _step(obs, goal, rng)})

    return hinder


def _defer(obs: SwarmObservation, rng: np.random.Generator) -> Decision:
    return Decision.follow_rule()


#: strategies whose team decides as one batch (coordination through the shared board)
_BATCH: dict[Callable[..., Decision], Callable[..., list[Decision]]] = {
    pursuit_help: pursuit_help_batch,
    sync_help: sync_help_batch,
}


class SwarmHeuristic(Controller):
    """One strategy function per (task, objective); per-decision draws come from addressed streams."""

    name = "heuristic"

    def __init__(
        self, world_cls: Any, objective: str, strategy: Callable[[SwarmObservation, np.random.Generator], Decision]
    ):
        self.world_cls, self.objective_name, self.strategy = world_cls, objective, strategy

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        rngs = [stream(self.seed, "controller.heuristic", req.actor_id, req.round) for req in requests]
        batch = _BATCH.get(self.strategy)
        if batch is not None:  # the team decides together, as influence agents sharing the board would
            return batch([req.observation for req in requests], rngs)
        return [self.strategy(req.observation, rng) for req, rng in zip(requests, rngs)]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "world": self.world_cls.name,
            "objective": self.objective_name,
            "strategy": getattr(self.strategy, "__name__", "strategy"),
        }


def make_swarm_heuristic(world_cls: Any, objective: str, **options: Any) -> Controller:
    """The heuristic controller for a swarm world and objective (`help` or `hinder`)."""
    table = {
        ("pursuit", "help"): pursuit_help,
        ("pursuit", "hinder"): pursuit_hinder,
        ("flocking", "help"): flocking_help,
        ("flocking", "hinder"): flocking_hinder,
        ("synchronization", "help"): sync_help,
        ("synchronization", "hinder"): sync_hinder,
        ("foraging", "help"): _defer,
        ("foraging", "hinder"): _dead_weight("F"),
        ("transport", "help"): _defer,
        ("transport", "hinder"): _dead_weight("B"),
    }
    key = (world_cls.name, objective)
    if key not in table:
        raise ConfigError("objective", f"no swarm heuristic for {key}")
    if options:
        raise ConfigError("controller_options", f"unknown option {sorted(options)[0]!r}")
    return SwarmHeuristic(world_cls, objective, table[key])
