"""`oracle`: a planning controller, the named upper bound of the steering scale.

Like a central planner it may know everything: each round it forks the live treatment world and
rolls candidate plans out to the horizon (or its lookahead) with every other agent on its rule.
It acts only through the influence path: its decisions are played at the influence agents' own
turns and audited like any controller's.

A plan is this round's joint action (or none) followed by a tail policy: `rule`, `stay`, `mimic`
or the world's heuristic. Each round the planner scores every tail as a whole plan, then improves
this round's joint action one agent at a time (coordinate ascent) over candidates: defer, the
null action, the rule's action, the heuristic's, and random legal actions from its own stream.
A candidate replaces the plan only when its rollout is strictly better, and the plan kept from
the last round is among those scored again, so with exact forks, tails that decide from the
request alone and a lookahead to the horizon the oracle never ends below any tail it scored from
round 0 (its rollouts ask the rule's action wherever the runner asks its live agents).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mam_bench.capabilities import PerTurnDecisions, RandomActions, RuleActions
from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError, config_error_from
from mam_bench.registry import make_controller, part_of
from mam_bench.steering import rollout_jobs
from mam_bench.steering.rule import RuleController
from mam_bench.steering.stay import StayController
from mam_bench.streams import stream
from mam_bench.world import SteerableWorld

#: the tail policies every plan may end with, in the order they are scored (ties keep the first)
TAILS = ("rule", "stay", "mimic", "heuristic")


class OracleOptions(BaseModel):
    """The planner's budget. Rollouts are exact (the world is deterministic given its seed), so
    one rollout scores a plan; `rollouts` and `budget` cap the search per round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: random legal actions per agent, beside defer, the null action, the rule's and the heuristic's
    candidates: int = Field(3, ge=0)
    #: rounds each rollout plays (None: to the horizon, which the never-below guarantee needs)
    lookahead: int | None = Field(None, ge=1)
    #: rollouts per round, at most (0: no cap); the tails are always scored
    rollouts: int = Field(0, ge=0)
    #: seconds of planning per round, at most (0: no limit); the tails are always scored
    budget: float = Field(0.0, ge=0)
    #: coordinate-ascent passes over the influence agents per round
    sweeps: int = Field(2, ge=1)
    #: the planner's own stream (its random candidates); never the world's
    plan_seed: int = Field(0, ge=0)


class Preset(Controller):
    """Fixed decisions for one round, by actor (a plan's explicit joint action)."""

    name = "preset"

    def __init__(self, decisions: dict[int, Decision]):
        self.decisions = decisions

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [self.decisions[r.actor_id] for r in requests]


class OracleController(Controller):
    name = "oracle"
    privileged = True

    def __init__(
        self,
        world_cls: type[SteerableWorld],
        objective: str = "",
        jobs: int | None = None,
        executor: str = "local",
        address: str | None = None,
        **options: Any,
    ):
        try:
            self.options = OracleOptions(**options)
        except ValidationError as exc:
            raise config_error_from(exc) from None
        self.world_cls = world_cls
        self.direction = world_cls.scoring.objectives.get(objective, 1)
        self.metric = world_cls.metric_for(objective) if objective in world_cls.scoring.objectives else None
        self.tails = [t for t in TAILS if t != "mimic" or isinstance(world_cls, RuleActions)]
        if "heuristic" in self.tails and part_of(world_cls, "heuristic") is None:
            self.tails.remove("heuristic")
        #: a `mimic` tail played live needs the rule's action in the runner's requests, as its
        #: rollouts had it; without it mimic answers an empty action and the plan played is not the
        #: plan scored
        self.wants_rule_action = "mimic" in self.tails
        self.per_turn = isinstance(world_cls, PerTurnDecisions)
        self.first: dict[int, Decision] | None = None
        self.live: Controller | None = None
        self.stats = {"rounds": 0, "rollouts": 0, "improved": 0, "seconds": 0.0}
        #: where rollouts run: this process (None), or an executor (`jobs`, `executor`, `address`)
        pooled = jobs is not None or executor != "local" or address
        self.pool = rollout_jobs.Pool(executor, address, jobs) if pooled else None
        #: what it decided in each round so far (what an executor's worker replays)
        self.played: list[dict[int, Decision]] = []

    def bind(self, world_name: str, objective: str, seed: int) -> None:
        super().bind(world_name, objective, seed)
        self.metric = self.world_cls.metric_for(objective)
        self.direction = self.world_cls.scoring.objectives[objective]

    # --- the plan ---------------------------------------------------------------------------------
    def tail(self, name: str) -> Controller:
        """A fresh tail policy, bound like the oracle (fresh each rollout: no memory carried over)."""
        controller = make_controller(name, self.world_cls, self.objective, {})
        controller.bind(self.world_name, self.objective, self.seed)
        return controller

    def request(self, world: SteerableWorld, aid: int, controller: Controller) -> Request:
        """What a policy is asked in a rollout: the observation and rule action, no board (and no
        observation for the policies that read none). The rule's action is asked wherever the
        runner asks it of the oracle's live agents, whichever policy plays, so that a world in
        which asking leaves a trace (crafting keeps the rule's answer) is played alike."""
        wants_rule = controller.wants_rule_action or self.wants_rule_action
        blind = isinstance(controller, (Preset, RuleController, StayController))
        return Request(
            world=self.world_name,
            actor_id=aid,
            round=world.round,
            objective=self.objective,
            observation=None if blind else world.observe(aid),
            rule_action=world.rule_action(aid) if wants_rule else None,  # type: ignore[attr-defined]
        )

    async def play(self, world: SteerableWorld, controller: Controller) -> None:
        """One round of `world` with `controller` deciding for its influence agents, as the runner
        plays it: all at once from the start-of-round state, or each at its own turn."""
        ids = world.influence_ids
        if self.per_turn and world.decides_per_turn:  # type: ignore[attr-defined]

            async def at_turn(aid: int) -> Decision:
                return (await controller.decide([self.request(world, aid, controller)]))[0]

            await world.aplay_round_per_turn(at_turn)
            return
        decided = await controller.decide([self.request(world, aid, controller) for aid in ids]) if ids else []
        world.play_round(dict(zip(ids, decided)))

    async def rollout(self, world: SteerableWorld, end: int, first: dict[int, Decision] | None, tail: str) -> tuple:
        """A plan's value: (metric at the end, its mean over the rounds played), directed."""
        self.stats["rollouts"] += 1
        twin = world.fork()
        policy = self.tail(tail)
        path = []
        while twin.round < end and not (twin.done and twin.treatment_stops_early):
            await self.play(twin, Preset(first) if first is not None and not path else policy)
            path.append(self.direction * twin.metrics()[self.metric])
        if not path:
            return (self.direction * twin.metrics()[self.metric], 0.0)
        return (path[-1], sum(path) / len(path))

    async def candidates(self, world: SteerableWorld, heuristic: dict[int, Decision]) -> dict[int, list[Decision]]:
        """Per agent, the actions worth trying this round, without repeats."""
        out: dict[int, list[Decision]] = {}
        for aid in world.influence_ids:
            found = [Decision.follow_rule(), Decision(action=self.world_cls.null_action())]
            if isinstance(world, RuleActions):
                found.append(Decision(action=world.rule_action(aid)))
            if aid in heuristic:
                found.append(heuristic[aid])
            if isinstance(world, RandomActions) and self.options.candidates:
                observation = world.observe(aid)
                for k in range(self.options.candidates):
                    rng = stream(self.seed, "controller.oracle", aid, world.round, k, self.options.plan_seed)
                    found.append(Decision(action=world.random_action(observation, rng)))
            seen: set[str] = set()
            out[aid] = [d for d in found if not (_key(d) in seen or seen.add(_key(d)))]
        return out

    async def materialise(self, world: SteerableWorld, tail: str) -> dict[int, Decision]:
        """What a tail policy decides for this round from the start-of-round state."""
        policy = self.tail(tail)
        ids = world.influence_ids
        return dict(zip(ids, await policy.decide([self.request(world, aid, policy) for aid in ids])))

    async def plan_round(self, world: SteerableWorld, horizon: int) -> None:
        started = time.perf_counter()
        opts = self.options
        end = horizon if opts.lookahead is None else min(horizon, world.round + opts.lookahead)
        spent = 0

        def out_of_budget() -> bool:
            over_time = opts.budget and time.perf_counter() - started > opts.budget
            return bool(over_time or (opts.rollouts and spent >= opts.rollouts))

        del self.played[world.round :]
        self.played.append({})
        best_tail, best_value, best_first = self.tails[0], None, None
        values = await self.score(world, end, [(None, name) for name in self.tails], lambda: False)
        spent += len(values)
        for name, value in zip(self.tails, values):  # every tail as a whole plan, whatever the budget
            if best_value is None or value > best_value:
                best_tail, best_value = name, value
        heuristic = await self.materialise(world, "heuristic") if "heuristic" in self.tails else {}
        options = await self.candidates(world, heuristic)
        joint = await self.materialise(world, best_tail)
        for _ in range(opts.sweeps):
            improved = False
            for aid in world.influence_ids:
                trials = [{**joint, aid: d} for d in options[aid] if _key(d) != _key(joint[aid])]
                trials = trials[: max(0, opts.rollouts - spent)] if opts.rollouts else trials
                values = await self.score(world, end, [(trial, best_tail) for trial in trials], out_of_budget)
                spent += len(values)
                for trial, value in zip(trials, values):
                    if value > best_value:
                        joint, best_value, best_first, improved = trial, value, trial, True
                        self.stats["improved"] += 1
            if not improved or out_of_budget():
                break
        self.first = best_first
        self.live = None if best_first is not None else self.tail(best_tail)
        self.stats["rounds"] += 1
        self.stats["seconds"] += time.perf_counter() - started

    async def score(
        self, world: SteerableWorld, end: int, plans: list[tuple[dict[int, Decision] | None, str]], out_of_budget: Any
    ) -> list[tuple]:
        """Each plan's rollout value, in order: here one by one while the budget lasts, or all at
        once on the executor (which checks the time budget per batch); the values are the same."""
        if self.pool is not None and plans and not out_of_budget():
            self.stats["rollouts"] += len(plans)
            return [tuple(v) for v in self.pool.score(rollout_jobs.job(self, world, end, plans), len(plans))]
        values = []
        for first, tail in plans:
            if out_of_budget():
                break
            values.append(await self.rollout(world, end, first, tail))
        return values

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if self.first is not None:
            out = [self.first[r.actor_id] for r in requests]
        elif self.live is None:
            raise ConfigError("policy", "the oracle plans on the live world: run it through the runner")
        else:
            out = await self.live.decide(requests)
        if self.played:
            self.played[-1].update((r.actor_id, d) for r, d in zip(requests, out))
        return out

    async def aclose(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    # --- what it tells ----------------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return {"name": self.name, **self.options.model_dump(), "tails": list(self.tails)}

    def options_line(self) -> str:
        o = self.options
        return (
            f"oracle: {o.candidates} random candidates per agent (beside defer, null, rule, heuristic), "
            f"lookahead {'to the horizon' if o.lookahead is None else o.lookahead}, "
            f"rollouts per round {o.rollouts or 'no cap'}, budget {f'{o.budget:g}s' if o.budget else 'none'} "
            f"per round, {o.sweeps} sweeps, plan seed {o.plan_seed}; tails {', '.join(self.tails)}"
        )

    def session_usage(self) -> dict[str, Any]:
        return {"planning": dict(self.stats)}


def _key(decision: Decision) -> str:
    return json.dumps([decision.defer, decision.action], sort_keys=True, default=str)
