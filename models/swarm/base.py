"""SwarmWorld: the shared steerable grid world the five SwarmBench tasks subclass.

Mesa's `step()` plays one round, `resolve_round` below, in two phases, as simultaneous moves
need (docs/worlds/swarm.md, "The grid and the round"). Decide: every rule agent
(`SwarmAgent.decide`, through `model.agents`) chooses from the start-of-round state; influence
agents that defer run exactly the ordinary rule with the same addressed stream (seed, "policy",
id, round), so null steering is exact. Apply: physics, then the task rule, then messages are
sent (heard next round). Ordinary agents never read message text. The group-dynamics research
metrics are computed from each round's inputs only when read (`dynamics.GroupDynamics`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from mesa.datacollection import DataCollector
from mesa.discrete_space import OrthogonalVonNeumannGrid
from pydantic import ValidationError

from mam_bench.models.swarm import commander, dynamics, physics
from mam_bench.models.swarm.actions import SwarmAction
from mam_bench.models.swarm.agent import SwarmAgent
from mam_bench.models.swarm.answer import upstream_answer
from mam_bench.models.swarm.grid import BASE_ACTIONS, DELTA, EMPTY
from mam_bench.models.swarm.layouts import walled
from mam_bench.models.swarm.messages import MessageBus, clip_message
from mam_bench.models.swarm.params import SwarmParams
from mam_bench.models.swarm.view import ActionRecord, FrameData, SwarmObservation, render
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.streams import RoundDraws, stream
from mam_bench.world import SteerableWorld


class SwarmWorld(SteerableWorld):
    """Subclasses set `name`, `Params`, `Action`, `Observation`, `allowed` and the task hooks."""

    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that

    Params: ClassVar[type[SwarmParams]] = SwarmParams
    Action: ClassVar[type] = SwarmAction
    Observation: ClassVar[type[SwarmObservation]] = SwarmObservation
    #: the conservative count (docs/worlds/swarm.md, "Objectives"): `help` wants more of what agents do, so
    #: it scores the ordinary agents alone (`ordinary_score`, the influence agents masked in both
    #: runs); `hinder` wants less, so it scores everyone (`score`): an influence agent that does
    #: the task itself, or ends the episode, only raises what it is scored against
    scoring = Scoring(
        metric="ordinary_score",
        objectives={"help": +1, "hinder": -1},
        objective_metrics={"hinder": "score"},
        secondary="score",
        reported=("score",),
        masks_influence=True,
        ordinary_metrics={"score": "ordinary_score"},
    )
    #: actions the schema accepts (each subclass: read from its Action schema)
    allowed: ClassVar[tuple[str, ...]] = BASE_ACTIONS
    #: the push solver (upstream's integer program); `bench/swarm_step.py` swaps in the old greedy
    resolve_pushes: ClassVar[Any] = staticmethod(physics.resolve)
    #: each task's rule agent (a `SwarmAgent` subclass with its `rule`)
    agent_class: ClassVar[type[SwarmAgent]] = SwarmAgent
    #: False: every agent looks for itself (the reference); True: the plan also carries what the
    #: whole swarm sees, computed in one pass and kept while it holds (tests hold the two equal)
    fast_paths: bool = True
    #: the group-dynamics research metrics (docs/worlds/swarm.md) in `metrics()`, computed when read;
    #: False (set before the first round) leaves them out, for rollouts and speed runs
    track_dynamics: bool = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.allowed = cls.Action.allowed()

    def __init__(self, params: SwarmParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        p = self.params
        self.size, self.n, self.reach = p.size, p.agents, p.view // 2
        self.terrain = walled(p.size)
        self.bodies: list[physics.Body] = []
        self.marks: dict[tuple[int, int], str] = {}
        self.pos = np.zeros((self.n, 2), dtype=np.int64)
        self.active = np.ones(self.n, dtype=bool)
        self.score = 0.0
        #: the score the ordinary agents make alone (captures, deliveries, escapes, flips of their
        #: own lights, the fit of their own shape), the masked agents left out in both runs
        self.ordinary_score = 0.0
        self.masked = np.isin(np.arange(self.n), list(self.run.mask_ids))
        self.setup(stream(self.seed, "layout"), stream(self.seed, "placement"))
        chief = commander.COMMANDER if p.commander else None
        self.bus = MessageBus(self.seed, self.reach, p.noise, p.delay, p.range_at, echo=p.upstream, commander=chief)
        self.inbox: dict[int, list[str]] = {}
        self.history: dict[int, deque] = {i: deque(maxlen=p.memory) for i in range(self.n)}
        self.recent: dict[int, deque] = {i: deque([tuple(self.pos[i])], maxlen=8) for i in range(self.n)}
        self.frames: deque[FrameData] = deque(maxlen=p.memory)
        self.last_actions: list[str | None] = [None] * self.n
        self.last_messages: list[str | None] = [None] * self.n
        self.group_dynamics = dynamics.GroupDynamics((p.size, p.size), self.n, self.reach, self.pos, self.active)
        self._grid: OrthogonalVonNeumannGrid | None = OrthogonalVonNeumannGrid(
            (p.size, p.size), torus=False, random=self.random
        )
        self.swarm = [self.agent_class(self, self.grid[tuple(int(x) for x in self.pos[i])], i) for i in range(self.n)]
        #: this round's policy streams, which the agents' `decide` reads (see `policy_draws`)
        self.draws = RoundDraws(self.seed, "policy", self.round, self.n)
        self._record_frame()
        #: SwarmBench reproduction mode: upstream's game, no board, every agent an influence agent
        self.reproduction = p.upstream and not p.board and len(self.run.influence_ids) == self.n
        self.datacollector = DataCollector(model_reporters={"score": lambda m: m.score})
        self.datacollector.collect(self)

    # --- the round ----------------------------------------------------------------------------
    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry]:
        """One round: every rule agent decides from the start-of-round state (the influence agents
        a controller steers skip their rule), then all actions are resolved at once (`_apply`)."""
        steered, verdict = self._steer(decisions)
        self.policy_draws()  # this round's streams, set up once for the swarm
        self.agents.do("decide", self.plan())  # phase one: every rule agent chooses, nobody moves
        actions = [a.action for a in self.swarm]
        messages = [a.message for a in self.swarm]
        for aid, (a, m) in steered.items():
            actions[aid], messages[aid] = a, m
        return self._apply(actions, messages, verdict)

    def _steer(
        self, decisions: Mapping[int, Decision]
    ) -> tuple[dict[int, tuple[str, str | None]], dict[int, tuple[str, str, bool]]]:
        """The influence agents' validated choices, and each one's audit verdict; those that
        defer (or have none) are left to the rule, exactly as an ordinary agent."""
        steered: dict[int, tuple[str, str | None]] = {}
        verdict: dict[int, tuple[str, str, bool]] = {}
        for aid in self.run.influence_ids:
            d = decisions.get(aid)
            agent = self.swarm[aid]
            if agent.escaped:
                verdict[aid] = ("stay", "escaped", bool((d or Decision.follow_rule()).defer))
            elif d is None or d.defer:
                verdict[aid] = ("", "", True)
            elif d.error:
                steered[aid], verdict[aid] = ("STAY", None), ("policy_error", d.error, False)
            else:
                a, m, problem = self._decision_action(d)
                steered[aid] = ("STAY" if a is None else a, m)
                verdict[aid] = ("invalid", problem, False) if a is None else ("", "", False)
            agent.steered = aid in steered
        return steered, verdict

    def _apply(
        self, actions: list[str | None], messages: list[str | None], verdict: dict[int, tuple[str, str, bool]]
    ) -> list[AuditEntry]:
        """Phase two: resolve every agent's action at once (task actions, pushes, the task rule),
        send the messages, keep the records, and audit the influence agents."""
        r = self.round
        self.before_physics(actions)
        moves = [a if a in DELTA else None for a in actions]
        prev, was_active = self.pos.copy(), self.active.copy()
        res = self.resolve_pushes(self.static_mask(), self.pos, self.active, moves, self.bodies)
        self.pos, self.bodies = res.positions, res.bodies
        off = ~(
            (self.pos[:, 0] >= 0) & (self.pos[:, 0] < self.size) & (self.pos[:, 1] >= 0) & (self.pos[:, 1] < self.size)
        )
        escaped = [int(i) for i in np.flatnonzero(off & self.active)]
        self.active &= ~off
        self.after_physics(escaped)
        before, after, live = prev.tolist(), self.pos.tolist(), self.active.tolist()
        for aid in range(self.n):
            if messages[aid]:
                self.bus.send(r, aid, (before[aid][0], before[aid][1]), messages[aid])
            if actions[aid] is not None:
                self.history[aid].append(ActionRecord(round=r, action=actions[aid], message=messages[aid]))
            if live[aid]:
                self.recent[aid].append((after[aid][0], after[aid][1]))
        self.inbox = self.bus.deliver(r + 1, self.pos, self.active)
        self._sync_mesa(before, after, was_active.tolist(), live)
        if self.track_dynamics:
            self.group_dynamics.record(prev, self.pos, was_active, self.active, actions, messages, res.push_events)
        self.last_actions, self.last_messages = actions, messages
        entries = []
        for aid in self.run.influence_ids:
            outcome, detail, deferred = verdict[aid]
            a = actions[aid] or "STAY"
            if not outcome:
                outcome = self._outcome(a, res.moved[aid], aid in escaped)
                detail = "escaped" if aid in escaped else ("automatic" if a in self.Action.aliases else "")
            proposal = {"action": a, "message": messages[aid]} if messages[aid] else {"action": a}
            entries.append(AuditEntry(r, aid, proposal, outcome, detail, deferred))
        self._record_frame(next_round=r + 1)
        return entries

    def _outcome(self, action: str, moved: np.ndarray, escaped: bool) -> str:
        if action in DELTA:
            dr, dc = DELTA[action]
            return "accepted" if (moved[0] * dr + moved[1] * dc) > 0 or escaped else "blocked"
        if action == "STAY" or action in self.Action.aliases:
            return "stay"
        return "accepted"

    def _sync_mesa(
        self, before: list[list[int]], after: list[list[int]], was_active: list[bool], live: list[bool]
    ) -> None:
        mirrored = self._grid is not None  # a fork builds its mirror when first read
        for aid in range(self.n):
            if was_active[aid] and not live[aid]:
                agent = self.swarm[aid]
                agent.escaped = True
                if mirrored:
                    agent.cell = None
            elif mirrored and live[aid] and before[aid] != after[aid]:
                self.swarm[aid].cell = self.grid[(after[aid][0], after[aid][1])]

    @property
    def grid(self) -> OrthogonalVonNeumannGrid:
        """The Mesa grid, a mirror of `pos` (the rules read the arrays): each live agent on its cell.
        A fork leaves it out and builds it here on first read, equal to its world's."""
        if self._grid is None:
            self._grid = OrthogonalVonNeumannGrid((self.size, self.size), torus=False, random=self.random)
            for agent, (r, c), live in zip(self.swarm, self.pos.tolist(), self.active.tolist()):
                if live:
                    agent.cell = self._grid[(r, c)]
        return self._grid

    def _record_frame(self, next_round: int = 0) -> None:
        box = frozenset(c for b in self.bodies if b.symbol == "B" for c in b.cells)
        self.frames.append(
            FrameData(
                next_round,
                self.terrain,
                self.pos.copy(),
                self.active.copy(),
                self.alt_state().copy(),
                box,
                dict(self.marks),
            )
        )

    def _fork_memo(self) -> dict[int, Any]:
        """A fork shares what no round changes: the terrain (set at setup), and the entries of
        the past frames, actions and cells (each queue its own, holding the same frozen entries);
        it leaves out the Mesa grid, which it builds if read."""
        memo = super()._fork_memo()
        if self._grid is not None:  # the Mesa mirror: the fork builds its own when read (`grid`)
            memo[id(self._grid)] = None
            memo.update((id(agent.cell), None) for agent in self.swarm if agent._mesa_cell is not None)
        memo[id(self.terrain)] = self.terrain
        for queue in (self.frames, *self.history.values(), *self.recent.values()):
            memo[id(queue)] = deque(queue, maxlen=queue.maxlen)
        return memo

    # --- task hooks -----------------------------------------------------------------------------
    def setup(self, layout_rng: np.random.Generator, placement_rng: np.random.Generator) -> None:
        """Build terrain, bodies and agent positions (and task state)."""
        raise NotImplementedError

    def plan(self) -> Any:
        """Task-wide data every rule reads this round (computed once from the start state)."""
        return None

    def before_physics(self, actions: list[str | None]) -> None:
        """Task actions that are not moves (SWITCH)."""

    def after_physics(self, escaped: list[int]) -> None:
        """Task rule and scoring after agents moved."""

    def task_metrics(self) -> dict[str, float]:
        return {}

    def status_of(self, aid: int) -> tuple[tuple[str, str], ...]:
        return ()

    def facts_of(self, aid: int) -> tuple[tuple[str, float], ...]:
        """Task numbers for controllers, so none has to parse the status text."""
        return ()

    def alt_state(self) -> np.ndarray:
        """Who renders as `$id`, the alternate state (sync: light off; foraging: not carrying)."""
        return np.zeros(self.n, dtype=bool)

    def static_mask(self) -> np.ndarray:
        return self.terrain != EMPTY

    def passable(self) -> np.ndarray:
        """Cells a path may cross: empty terrain not under a body or a mark."""
        ok = self.terrain == EMPTY
        for b in self.bodies:
            for r, c in b.cells:
                if 0 <= r < self.size and 0 <= c < self.size:
                    ok[r, c] = False
        for r, c in self.marks:
            ok[r, c] = False
        return ok

    # --- contract -------------------------------------------------------------------------------
    def actor_ids(self) -> list[int]:
        return list(range(self.n))

    @classmethod
    def parse_upstream_answer(cls, text: str) -> dict[str, Any]:
        """Upstream's reading of an answer (reproduction mode): never raises, STAY when unreadable."""
        return upstream_answer(text, cls.allowed)

    def observe(self, actor_id: int) -> SwarmObservation:
        chief = self.params.commander and actor_id == commander.COMMANDER
        frames = [
            v
            for f in reversed(self.frames)
            if (v := commander.global_view(f, actor_id) if chief else render(f, actor_id, self.params.view)) is not None
        ]
        pos = tuple(int(x) for x in self.pos[actor_id]) if self.active[actor_id] else None
        status = self.status_of(actor_id) + ((commander.role_status(actor_id),) if self.params.commander else ())
        return self.Observation(
            task=self.name,
            actor_id=actor_id,
            round=self.round,
            size=self.size,
            view=self.params.view,
            max_round=self.params.rounds,
            position=pos,
            score=float(self.score),
            status=status,
            facts=self.facts_of(actor_id),
            frames=tuple(frames),
            messages=tuple(self.inbox.get(actor_id, ())),
            actions=tuple(self.history[actor_id]),
            allowed=self.allowed,
            upstream_answers=self.reproduction,
        )

    def _decision_action(self, d: Decision) -> tuple[str | None, str | None, str]:
        """(action, message, problem) from a controller's decision; never raises."""
        raw = dict(d.action) if isinstance(d.action, dict) else ({} if d.action is None else {"action": d.action})
        if isinstance(raw.get("action"), str):
            raw["action"] = raw["action"].strip().upper()
        msg = raw.pop("message", None)
        msg = d.message if d.message is not None else msg
        try:
            act = self.Action.model_validate(raw).action
        except ValidationError as exc:
            return None, self.clip(msg), exc.errors()[0].get("msg", "invalid action")
        except Exception as exc:  # noqa: BLE001 - hostile input must never crash a round
            return None, self.clip(msg), str(exc)
        return act, self.clip(msg if msg is None else str(msg)), ""

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """What the ordinary rule would do for `actor_id` now, from its own stream (for `mimic`)."""
        if not self.active[actor_id]:
            return self.Action.null_action()
        agent = self.swarm[actor_id]
        a, m = agent.rule(self.plan(), agent.stream())
        return {"action": a, "message": self.clip(m)}

    def policy_draws(self) -> RoundDraws:
        """This round's addressed policy streams, one per agent (the same as `agent_draws`)."""
        if self.draws.round != self.round:
            self.draws = RoundDraws(self.seed, "policy", self.round, self.n)
        return self.draws

    def clip(self, text: Any) -> str | None:
        return clip_message(text, self.params.upstream)

    # --- outcome --------------------------------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        return {
            "score": float(self.score),
            "ordinary_score": float(self.ordinary_score),
            **self.task_metrics(),
            **(self.group_dynamics.values() if self.track_dynamics else {}),
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "positions": [[int(r), int(c)] if a else None for (r, c), a in zip(self.pos.tolist(), self.active)],
            "alt_state": [bool(x) for x in self.alt_state()],  # rendered `$id`: light off / not carrying
            "box": sorted([int(r), int(c)] for b in self.bodies if b.symbol == "B" for r, c in b.cells),
            "marks": {f"{r},{c}": s for (r, c), s in sorted(self.marks.items())},
            "actions": list(self.last_actions),
            "messages": list(self.last_messages),
        }
