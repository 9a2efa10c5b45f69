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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from mam_bench import model_ids
from mam_bench.capabilities import ActionMenu, RandomActions, RuleActions, null_action
from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError, config_error_from
from mam_bench.registry import make_controller, part_of
from mam_bench.steering import rollout_jobs
from mam_bench.steering.rule import RuleController
from mam_bench.steering.stay import StayController
from mam_bench.streams import stream
from mam_bench.world import SteerableWorld, fork, play_round

#: the tail policies every plan may end with, in the order they are scored (ties keep the first)
TAILS = ("rule", "stay", "mimic", "heuristic")

#: the joint actions of one or more rounds, in order (a plan's explicit part before its tail)
Script = dict[int, Decision] | tuple[dict[int, Decision], ...]


#: upper bounds of the planner's options (each round costs candidates x sweeps x agents rollouts)
MAX_CANDIDATES, MAX_SWEEPS, MAX_ROLLOUTS, MAX_LOOKAHEAD, MAX_BUDGET = 64, 20, 100_000, 100_000, 3600.0
#: menu actions tried per agent, at most (a menu longer than this is cut, in the world's order)
MAX_LEGAL = 10_000


class OracleOptions(BaseModel):
    """The planner's budget. Rollouts are exact (the world is deterministic given its seed), so
    one rollout scores a plan; `rollouts` and `budget` cap the search per round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: random legal actions per agent, beside defer, the null action, the rule's and the heuristic's
    candidates: int = Field(3, ge=0, le=MAX_CANDIDATES)
    #: rounds each rollout plays (None: to the horizon, which the never-below guarantee needs)
    lookahead: int | None = Field(None, ge=1, le=MAX_LOOKAHEAD)
    #: rollouts per round, at most (0: no cap); the tails are always scored
    rollouts: int = Field(0, ge=0, le=MAX_ROLLOUTS)
    #: seconds of planning per round, at most (0: no limit); the tails are always scored
    budget: float = Field(0.0, ge=0, le=MAX_BUDGET, allow_inf_nan=False)
    #: coordinate-ascent passes over the influence agents per round
    sweeps: int = Field(2, ge=1, le=MAX_SWEEPS)
    #: the planner's own stream (its random candidates); never the world's
    plan_seed: int = Field(0, ge=0, le=2**63 - 1)
    #: the first N legal actions of the world's menu per agent (`ActionMenu` worlds), in its order,
    #: tried beside the others (0: none, the v2 planner)
    legal: int = Field(0, ge=0, le=MAX_LEGAL)
    #: seed every round's search with `greedy`'s joint action (a one-round lookahead)
    greedy: bool = False
    #: first play every smaller budget (candidates 0..N, sweeps 1..M) from the start and seed the
    #: search with the plans they played, so that more budget never ends lower
    nested: bool = False

    @field_validator("candidates", "lookahead", "rollouts", "budget", "sweeps", "plan_seed", "legal", mode="before")
    @classmethod
    def _not_a_bool(cls, value: Any) -> Any:
        """`candidates=true` is no count (pydantic would read it as 1)."""
        if isinstance(value, bool):
            raise ValueError("expected a number, not true or false")
        return value


#: options added after v2 was frozen: told (records, options line) only where set, so that a v2
#: oracle describes itself as it did
LATER = ("legal", "greedy", "nested")


class Preset(Controller):
    """Fixed decisions for one round, by actor (a plan's explicit joint action)."""

    name = "preset"

    def __init__(self, decisions: dict[int, Decision]):
        self.decisions = decisions

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [self.decisions.get(r.actor_id, Decision.follow_rule()) for r in requests]


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
        self.metric = world_cls.scoring.metric_for(objective) if objective in world_cls.scoring.objectives else None
        self.tails = [t for t in TAILS if t != "mimic" or isinstance(world_cls, RuleActions)]
        if "heuristic" in self.tails and part_of(world_cls, "heuristic") is None:
            self.tails.remove("heuristic")
        #: a `mimic` tail played live needs the rule's action in the runner's requests, as its
        #: rollouts had it; without it mimic answers an empty action and the plan played is not the
        #: plan scored
        self.wants_rule_action = "mimic" in self.tails
        self.first: dict[int, Decision] | None = None
        self.live: Controller | None = None
        self.stats = {"rounds": 0, "rollouts": 0, "improved": 0, "seconds": 0.0}
        #: where rollouts run: this process (None), or an executor (`jobs`, `executor`, `address`)
        pooled = jobs is not None or executor != "local" or address
        self.pool = rollout_jobs.Pool(executor, address, jobs) if pooled else None
        #: what it decided in each round so far (what an executor's worker replays)
        self.played: list[dict[int, Decision]] = []
        #: the plan kept from the last round: its script (joint actions from that round on), its tail
        self.kept: tuple[Script, str] | None = None
        #: the plans every smaller budget played (`nested`), once they are known
        self.inherited: list[Script] | None = None
        #: (candidates, sweeps) -> the directed metric each smaller budget ended at (`nested`)
        self.ladder: dict[tuple[int, int], float] = {}

    def bind(self, world_name: str, objective: str, seed: int) -> None:
        super().bind(world_name, objective, seed)
        self.metric = self.world_cls.scoring.metric_for(objective)
        self.direction = self.world_cls.scoring.objectives[objective]

    # --- the plan ---------------------------------------------------------------------------------
    def tail(self, name: str) -> Controller:
        """A fresh tail policy, bound like the oracle (fresh each rollout: no memory carried over)."""
        controller = make_controller(name, self.world_cls, self.objective, {})
        controller.bind(self.world_name, self.objective, self.seed)
        return controller

    def request(self, world: SteerableWorld, aid: int, controller: Controller) -> Request:
        """What a policy is asked in a rollout: the observation and rule action, no board (and no
        observation for the policies that read none). In a world whose agents may keep the rule's
        answer (`rule_answer_kept`: crafting), the rule's action is asked wherever the runner asks
        it of the oracle's live agents, whichever policy plays, so that the rollout plays as the
        live world would; elsewhere only a policy that reads it is given it."""
        kept = self.wants_rule_action and type(world).rule_answer_kept
        wants_rule = controller.wants_rule_action or kept
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
        plays it (the world's one round entry point: all at once, or each at its own turn)."""

        async def decide(ids: Sequence[int]) -> list[Decision]:
            return await controller.decide([self.request(world, aid, controller) for aid in ids])

        await world.aplay_round(decide)

    async def rollout(self, world: SteerableWorld, end: int, first: Script | None, tail: str) -> tuple:
        """A plan's value: (metric at the end, its mean over the rounds played), directed. `first`
        is this round's joint action, or the joint actions of the next rounds (a script), played
        before the tail takes over."""
        self.stats["rollouts"] += 1
        twin = fork(world)
        policy = self.tail(tail)
        script = [] if first is None else [first] if isinstance(first, dict) else list(first)
        path = []
        try:
            while twin.round < end and not (twin._done and twin.scoring.treatment_stops_early):
                await self.play(twin, Preset(script[len(path)]) if len(path) < len(script) else policy)
                path.append(self.direction * twin.metrics()[self.metric])
        finally:
            model_ids.release(twin)  # a rollout's world is finished: Mesa's id counter need not keep it
        if not path:
            return (self.direction * twin.metrics()[self.metric], 0.0)
        return (path[-1], sum(path) / len(path))

    async def candidates(self, world: SteerableWorld, heuristic: dict[int, Decision]) -> dict[int, list[Decision]]:
        """Per agent, the actions worth trying this round, without repeats. Each kind is a prefix of
        what a larger budget tries (random draw k is the same whatever the count), so a larger
        budget's candidates hold a smaller one's."""
        out: dict[int, list[Decision]] = {}
        for aid in world.run.influence_ids:
            found = [Decision.follow_rule(), Decision(action=null_action(self.world_cls.Action))]
            if isinstance(world, RuleActions):
                found.append(Decision(action=world.rule_action(aid)))
            if aid in heuristic:
                found.append(heuristic[aid])
            if isinstance(world.Action, RandomActions) and self.options.candidates:
                observation = world.observe(aid)
                for k in range(self.options.candidates):
                    rng = stream(self.seed, "controller.oracle", aid, world.round, k, self.options.plan_seed)
                    found.append(Decision(action=world.Action.random_action(observation, rng)))
            if self.options.legal and isinstance(world.Action, ActionMenu):
                legal = world.Action.legal_actions(world.observe(aid))[: self.options.legal]
                found.extend(Decision(action=a) for a in legal)
            seen: set[str] = set()
            out[aid] = [d for d in found if not (_key(d) in seen or seen.add(_key(d)))]
        return out

    async def materialise(self, world: SteerableWorld, tail: str) -> dict[int, Decision]:
        """What a tail policy decides for this round from the start-of-round state."""
        policy = self.tail(tail)
        ids = world.run.influence_ids
        return dict(zip(ids, await policy.decide([self.request(world, aid, policy) for aid in ids])))

    async def seeds(self, world: SteerableWorld, horizon: int, tail: str) -> list[tuple[Script, str]]:
        """Plans this round's search starts from beside the tails: the rest of the plan kept from
        the last round (where it scripts more than that round), the plans every smaller budget
        played (`nested`, once, from where the run starts) and greedy's joint action."""
        out: list[tuple[Script, str]] = []
        if self.kept is not None and len(self.kept[0]) > 1:
            out.append((self.kept[0][1:], self.kept[1]))
        if self.options.nested and self.inherited is None:
            self.inherited = await self.smaller_budgets(world, horizon)
        if self.inherited:  # handed over once, where the plans start; the kept plan carries them on
            out.extend((script, "rule") for script in self.inherited)
            self.inherited = []
        if self.options.greedy:
            from mam_bench.steering.greedy import GreedyOptions, greedy_joint

            out.append(((await greedy_joint(self, world, GreedyOptions()),), tail))
        return out

    async def smaller_budgets(self, world: SteerableWorld, horizon: int) -> list[Script]:
        """What each smaller budget (candidates c <= N, sweeps s <= M, not both equal) plays from
        here to the horizon, each seeded with the plans of the budgets it holds: the search path of
        every smaller budget is inside this one's, so its lift is at least theirs."""
        opts = self.options
        played: dict[tuple[int, int], Script] = {}
        for c in range(opts.candidates + 1):
            for s in range(1, opts.sweeps + 1):
                if (c, s) == (opts.candidates, opts.sweeps):
                    continue
                sub = OracleController(
                    self.world_cls, self.objective, **{**self._plan_options(), "candidates": c, "sweeps": s}
                )
                sub.bind(self.world_name, self.objective, self.seed)
                sub.inherited = [p for (c2, s2), p in played.items() if c2 <= c and s2 <= s]
                sub.played = [{} for _ in range(world.round)]
                twin = fork(world)
                while twin.round < horizon and not (twin._done and twin.scoring.treatment_stops_early):
                    await sub.plan_round(twin, horizon)
                    await self.play(twin, sub)
                played[(c, s)] = tuple(sub.played[world.round :])
                self.ladder[(c, s)] = self.direction * twin.metrics()[self.metric]
                for key in ("rollouts", "improved"):
                    self.stats[key] += sub.stats[key]
        return list(played.values())

    def _plan_options(self) -> dict[str, Any]:
        """The options a smaller budget plans with: this one's, in process, unnested (it is handed
        the plans of the budgets it holds instead)."""
        return {**self.options.model_dump(), "nested": False}

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
        best_tail, best_value, best_script = self.tails[0], None, ()
        values = await self.score(world, end, [(None, name) for name in self.tails], lambda: False)
        spent += len(values)
        for name, value in zip(self.tails, values):  # every tail as a whole plan, whatever the budget
            if best_value is None or value > best_value:
                best_tail, best_value = name, value
        seeds = await self.seeds(world, horizon, best_tail)
        values = await self.score(world, end, seeds, lambda: False)  # every seed too: it is known
        spent += len(values)
        for (script, tail), value in zip(seeds, values):
            if value > best_value:
                best_tail, best_value, best_script = tail, value, tuple(script)
        heuristic = await self.materialise(world, "heuristic") if "heuristic" in self.tails else {}
        options = await self.candidates(world, heuristic)
        joint = dict(best_script[0]) if best_script else await self.materialise(world, best_tail)
        for _ in range(opts.sweeps):
            improved = False
            for aid in world.run.influence_ids:
                rest = best_script[1:]
                current = joint.get(aid, Decision.follow_rule())
                trials = [{**joint, aid: d} for d in options[aid] if _key(d) != _key(current)]
                trials = trials[: max(0, opts.rollouts - spent)] if opts.rollouts else trials
                plans = [((trial, *rest), best_tail) for trial in trials]
                values = await self.score(world, end, plans, out_of_budget)
                spent += len(values)
                for trial, value in zip(trials, values):
                    if value > best_value:
                        joint, best_value, best_script, improved = trial, value, (trial, *rest), True
                        self.stats["improved"] += 1
            if not improved or out_of_budget():
                break
        self.first = dict(best_script[0]) if best_script else None
        self.kept = (best_script, best_tail)
        self.live = None if best_script else self.tail(best_tail)
        self.stats["rounds"] += 1
        self.stats["seconds"] += time.perf_counter() - started

    async def score(
        self, world: SteerableWorld, end: int, plans: list[tuple[Script | None, str]], out_of_budget: Any
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
            raise ConfigError("controller", "the oracle plans on the live world: run it through the runner")
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
        later = {
            k: v
            for k, v in self.options.model_dump().items()
            if k in LATER and v != OracleOptions.model_fields[k].default
        }
        told = {k: v for k, v in self.options.model_dump().items() if k not in LATER}
        return {"name": self.name, **told, **later, "tails": list(self.tails)}

    def options_line(self) -> str:
        o = self.options
        return (
            f"oracle: {o.candidates} random candidates per agent (beside defer, null, rule, heuristic), "
            f"lookahead {'to the horizon' if o.lookahead is None else o.lookahead}, "
            f"rollouts per round {o.rollouts or 'no cap'}, budget {f'{o.budget:g}s' if o.budget else 'none'} "
            f"per round, {o.sweeps} sweeps, plan seed {o.plan_seed}; tails {', '.join(self.tails)}"
            + (f"; the first {o.legal} legal actions of the menu" if o.legal else "")
            + ("; seeded with greedy's joint action" if o.greedy else "")
            + ("; nested over every smaller budget" if o.nested else "")
        )

    def rollouts_per_round(self, agents: int) -> int:
        """Rollouts one round's plan scores at most: every tail, then each sweep tries each agent's
        other options (defer, null, rule, heuristic, random candidates); fewer when a sweep improves nothing."""
        options = 2 + isinstance(self.world_cls, RuleActions) + ("heuristic" in self.tails)
        options += self.options.candidates if isinstance(self.world_cls.Action, RandomActions) else 0
        most = len(self.tails) + self.options.sweeps * agents * (options - 1)
        return max(len(self.tails), min(most, self.options.rollouts)) if self.options.rollouts else most

    def cost_line(self, prep: Any) -> str:
        """Rollouts and time at most, before planning: rounds played in forks, timed on a few rounds here."""
        o, horizon = self.options, prep.horizon
        per_round = self.rollouts_per_round(len(prep.influence_ids))
        played = sum(per_round * min(o.lookahead or horizon, horizon - r) for r in range(horizon))
        world = prep.fresh_world(treatment=True)
        rule = {aid: Decision.follow_rule() for aid in prep.influence_ids}
        started, timed = time.perf_counter(), 0
        while timed < min(3, horizon) and not world._done:
            play_round(fork(world), rule)
            play_round(world, rule)
            timed += 1
        each = (time.perf_counter() - started) / (2 * max(timed, 1))  # one round played, a fork included
        seconds = played * each
        if o.budget:  # a round plans for the budget, and scores every tail whatever the budget
            tails = len(self.tails) * horizon * each
            seconds = min(seconds, horizon * o.budget + tails)
        where = "in one process (--jobs workers share it)" if self.pool is not None else "in this process"
        return (
            f"oracle cost: at most {per_round * horizon} rollouts ({per_round} a round over {horizon} rounds), "
            f"{played} rounds played in forks at {each * 1000:.1f} ms each here: about {_duration(seconds)} "
            f"{where}; bound it with --budget SECONDS a round, --rollouts, --lookahead, --candidates or --sweeps"
        )

    def session_usage(self) -> dict[str, Any]:
        return {"planning": dict(self.stats)}


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def _key(decision: Decision) -> str:
    return json.dumps([decision.defer, decision.action], sort_keys=True, default=str)
