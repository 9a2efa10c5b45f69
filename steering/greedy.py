"""`greedy`: a one-round lookahead over every legal move, one influence agent at a time.

Privileged like the oracle: each round it forks the live treatment world and plays one round per
candidate, with the other influence agents on their current choice (all start by deferring to
their rule), and keeps an agent's candidate only when the metric after that round is strictly
better (directed by the objective). It looks no further than the round it plays, which is what
separates it from the oracle; the oracle seeds its own search with greedy's joint action.

Candidates per agent: defer, then every legal action where the world lists them (`ActionMenu`,
the first `menu` of them when `menu` is set); elsewhere the null action, the rule's action and
`candidates` random legal actions from the controller's own stream.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mam_bench.capabilities import ActionMenu, RandomActions, RuleActions, null_action
from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError, config_error_from
from mam_bench.streams import stream
from mam_bench.world import SteerableWorld


class GreedyOptions(BaseModel):
    """What greedy tries per agent and round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: random legal actions per agent where the world lists no menu
    candidates: int = Field(8, ge=0)
    #: legal actions per agent from the world's menu, in its order (0: all of them)
    menu: int = Field(0, ge=0)
    #: passes over the influence agents per round (the later ones see the earlier choices)
    sweeps: int = Field(1, ge=1)
    #: greedy's own stream (its random candidates); never the world's
    plan_seed: int = Field(0, ge=0)


def candidate_actions(
    world: SteerableWorld, aid: int, seed: int, tag: str, random_count: int, menu: int, plan_seed: int
) -> list[Decision]:
    """One agent's candidates this round, without repeats, in a fixed order: defer; the world's
    menu (its first `menu`, 0 for all) where it lists one, else the null action, the rule's action
    and `random_count` random legal actions from `(seed, tag, actor, round, k, plan_seed)`. Draw k
    is the same whatever `random_count` is, so a smaller count's candidates are a prefix of a
    larger one's."""
    found = [Decision.follow_rule()]
    if isinstance(world.Action, ActionMenu):
        legal = world.Action.legal_actions(world.observe(aid))
        found += [Decision(action=a) for a in (legal[:menu] if menu else legal)]
    else:
        found.append(Decision(action=null_action(world.Action)))
        if isinstance(world, RuleActions):
            found.append(Decision(action=world.rule_action(aid)))
        if isinstance(world.Action, RandomActions) and random_count:
            observation = world.observe(aid)
            for k in range(random_count):
                rng = stream(seed, tag, aid, world.round, k, plan_seed)
                found.append(Decision(action=world.Action.random_action(observation, rng)))
    seen: set[str] = set()
    return [d for d in found if not (decision_key(d) in seen or seen.add(decision_key(d)))]


async def greedy_joint(planner: Any, world: SteerableWorld, options: GreedyOptions) -> dict[int, Decision]:
    """Coordinate-wise one-round lookahead: `planner.rollout` (the oracle's) plays one round of a
    fork per candidate; ties keep the agent's current choice."""
    ids = world.run.influence_ids
    joint = {aid: Decision.follow_rule() for aid in ids}
    if not ids:
        return joint
    end = world.round + 1
    best = await planner.rollout(world, end, joint, "rule")
    for _ in range(options.sweeps):
        improved = False
        for aid in ids:
            tag = "controller.greedy"
            for d in candidate_actions(
                world, aid, planner.seed, tag, options.candidates, options.menu, options.plan_seed
            ):
                if decision_key(d) == decision_key(joint[aid]):
                    continue
                trial = {**joint, aid: d}
                value = await planner.rollout(world, end, trial, "rule")
                if value > best:
                    joint, best, improved = trial, value, True
        if not improved:
            break
    return joint


class GreedyController(Controller):
    name = "greedy"
    privileged = True

    def __init__(self, world_cls: type[SteerableWorld], objective: str = "", **options: Any):
        from mam_bench.steering.oracle import OracleController

        try:
            self.options = GreedyOptions(**options)
        except ValidationError as exc:
            raise config_error_from(exc) from None
        self.world_cls = world_cls
        #: the oracle's one-round rollouts (fork, play the round as the runner does, score)
        self.planner = OracleController(world_cls, objective)
        self.joint: dict[int, Decision] | None = None

    def bind(self, world_name: str, objective: str, seed: int) -> None:
        super().bind(world_name, objective, seed)
        self.planner.bind(world_name, objective, seed)

    async def plan_round(self, world: SteerableWorld, horizon: int) -> None:
        self.joint = await greedy_joint(self.planner, world, self.options)

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        if self.joint is None:
            raise ConfigError("controller", "greedy looks ahead on the live world: run it through the runner")
        return [self.joint.get(r.actor_id, Decision.follow_rule()) for r in requests]

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, **self.options.model_dump()}

    def options_line(self) -> str:
        o = self.options
        menu = f"the first {o.menu} of the menu" if o.menu else "the whole menu"
        return (
            f"greedy: one-round lookahead per agent over defer and {menu} where the world lists one, "
            f"else null, rule and {o.candidates} random candidates; {o.sweeps} sweeps, plan seed {o.plan_seed}"
        )


def decision_key(decision: Decision) -> str:
    return json.dumps([decision.defer, decision.action], sort_keys=True, default=str)
