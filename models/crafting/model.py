"""The crafting world: a Mesa model of an AgentWorld-style economy with sequential turns.

Each round every agent takes one turn in order (fixed, or a seeded shuffle per round), played
through an AgentSet (`turns`, the one round loop Mesa's `step()` drives): an ordinary agent's turn
is its own `step()` (its rule). Influence agents decide from the start-of-round state
(`protocol=start_of_round`) or, as in AgentWorld, at their own turn from a fresh observation
(`protocol=round_robin`); their action resolves at their turn, and an action that became illegal
by then is a logged failure ("blocked"). An action executes
through its typed form (`action_table.py`) and is logged with its causal parents (item
provenance, moves, equips, requests) so CCE is exact.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Mapping
from typing import Any

from mesa.agent import AgentSet
from mesa.discrete_space import OrthogonalMooreGrid

from mam_bench.models.crafting import combat, episode, exploration, market, shared_plan, states, survival, trading
from mam_bench.models.crafting import metrics as crafting_metrics
from mam_bench.models.crafting.action_table import precondition, typed
from mam_bench.models.crafting.actions import CraftingAction, validate_action
from mam_bench.models.crafting.agents import CraftingAgent
from mam_bench.models.crafting.agentworld import trajectory as agentworld_trajectory
from mam_bench.models.crafting.catalog import task_catalog
from mam_bench.models.crafting.conditions import has, now, spawn_cells, task_under
from mam_bench.models.crafting.observe import CraftingObservation, observe_agent
from mam_bench.models.crafting.params import CraftingParams
from mam_bench.models.crafting.tasks import Task, get_task, verify
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.status import Status
from mam_bench.streams import acting, agent_stream, stream
from mam_bench.world import SteerableWorld

GRID = (24, 24)


class CraftingWorld(SteerableWorld):
    name = "crafting"
    rule_answer_kept = True  # an agent playing its rule's answer keeps what the rule would have remembered
    Params = CraftingParams
    Action = CraftingAction
    #: the primary metric `progress` is the area under the PSR curve over the budget
    #: (metrics.progress), counting only what the unmasked (ordinary) agents made or delivered.
    #: `inequality` raises the wealth Gini of the ordinary agents (their own work, at market prices);
    #: the conservative count: `accelerate` (more) scores the ordinary agents' own work (`progress`),
    #: `shortage` (less) everyone's (`progress_all`), so influence agents that finish, hoard or end
    #: the task themselves only raise what shortage is scored against
    scoring = Scoring(
        summary="AgentWorld-style crafting economy: roles, a pull pipeline, verifiers, exact CCE",
        metric="progress",
        objectives={"accelerate": +1, "shortage": -1, "inequality": +1},
        default_objective="shortage",
        objective_metrics={"inequality": "gini", "shortage": "progress_all"},
        secondary="psr",
        reported=(
            "progress_all",
            "sr",
            "gini",
            "gini_all",
            "throughput",
            "price_level",
            "price_volatility",
            "time_to_completion",
            "cce",
        ),
        masks_influence=True,
        ordinary_metrics={"progress_all": "progress"},
    )

    def __init__(self, params: CraftingParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        task = get_task(self.params.task)
        self.cat = task_catalog(task)
        self.task: Task = task_under(task, self.params.condition, self.seed, self.cat)
        if self.task.verifier is not None:  # a world built to play imports the verifier now, in its child
            from mam_bench.models.crafting.task_files import verifier_of

            verifier_of(self.task)
        if self.task.criteria is not None:  # AgentWorld's, started now (it imports at its first call)
            from mam_bench.models.crafting.task_files import criteria_of

            criteria_of(self.task)
        self.strategy = self.params.plays_strategy()
        self.budget = episode.budget(self.params, self.task)
        self.grid = OrthogonalMooreGrid(GRID, torus=False, random=self.random)
        jitter = self.params.stock_jitter
        self.stock: dict[str, int] = {}
        self.max_stock: dict[str, int] = {}
        for k, (nid, spec) in enumerate((n, self.cat.nodes[n]) for n in self.cat.node_order):
            delta = int(stream(self.seed, "stocks", k).integers(-jitter, jitter + 1)) if jitter else 0
            self.stock[nid] = self.max_stock[nid] = max(1, spec.stock + delta)
        self.actors: list[CraftingAgent] = []
        market_mode = self.strategy == "market"
        plan = market.target_shares(self.task) if market_mode else shared_plan.build_plan(self.task, self.cat)
        for i, spec in enumerate(self.task.agents):
            role = self.cat.roles[spec.role]
            makes = tuple(spec.makes) if spec.makes is not None else role.makes
            skills = spec.skills if spec.skills is not None else role.skills
            a = CraftingAgent(self, i, spec.role, self.task.username(i), skills, makes, role.coordinator)
            for item, qty in spec.inventory.items():
                a.give(item, qty, -1)
            for tool in spec.equipment:
                a.equipment[tool] = -1
            a.obligations = plan[i]
            a.memory = {nid: spec_n.stock for nid, spec_n in self.cat.nodes.items()}  # the context doc
            exploration.place(self, a, spec.spawn)
            self.actors.append(a)
        if has(self.params.condition, "random_spawn"):
            cells = spawn_cells(self.task, self.cat, self.seed, GRID, self.params.spawn_region)
            for a, cell in zip(self.actors, cells):
                exploration.put(self, a, cell)
        self.log: list[dict[str, Any]] = []  # every action of every agent, with causal parents
        self.requests: list[dict[str, Any]] = []
        self.orders: list[dict[str, Any]] = []  # open orders posted to everyone (market strategy)
        self.prices: dict[str, float] = {}
        self.price_history: list[dict[str, float]] = []
        self.chats: list[dict[str, Any]] = []
        self.crafted: dict[str, int] = {}
        self.harvested: dict[str, int] = {}
        self.blocked_since: dict[tuple[int, str], int] = {}
        self.leader_asked: dict[tuple[int, str], int] = {}
        #: actor -> (round, the rule's answer when asked, the goal and leader notes it would keep)
        self.rule_answers: dict[int, tuple[int, Any, str | None, dict[tuple[int, str], int]]] = {}
        self.last_outcome: dict[int, str] = {}
        self._metrics_cache: tuple[int, dict[str, float]] | None = None
        self._acts: dict[tuple[int, int], int] = {}  # (round, actor) -> actions taken (action_index)
        self.psr_curve: list[float] = []  # PSR(t) at the end of round t = 1, 2, ... (for `progress_all`)
        self.psr_own_curve: list[float] = []  # the same over own work only (for `progress`)
        self.passed = False  # the verifier's verdict at the end of the last round (`stopping_rule`)
        self.crafted_own: dict[str, int] = {}  # crafts and harvests by agents outside the mask
        self.harvested_own: dict[str, int] = {}
        for mechanic in (survival, combat, exploration, trading):
            mechanic.setup(self)

    # --- the round: every agent's turn in order ---------------------------------------------------
    def turn_order(self) -> list[int]:
        """Round-robin by index, or by per-agent order keys (so nobody's key depends on who is steered)."""
        n = len(self.actors)
        if self.params.turn_order == "fixed":
            return list(range(n))
        keys = [float(agent_stream(self.seed, "order", self.round, i).random()) for i in range(n)]
        return sorted(range(n), key=lambda i: (keys[i], i))

    def round_order(self) -> AgentSet:
        """This round's agents, in their turn order."""
        return AgentSet([self.actors[i] for i in self.turn_order()], random=self.random)

    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry]:
        """The round with every influence decision taken from the start-of-round state."""
        turns, decision = self.turns(), None
        while True:
            try:
                aid = turns.send(decision)
            except StopIteration as done:
                return done.value
            decision = decisions.get(aid)

    async def aresolve_round_per_turn(self, decide: Callable[[int], Awaitable[Decision]]) -> list[AuditEntry]:
        """The same round, each influence agent asked at its own turn, once it has received what
        was sent to it: its observation shows every earlier turn."""
        turns, decision = self.turns(), None
        while True:
            try:
                aid = turns.send(decision)
            except StopIteration as done:
                return done.value
            decision = await decide(aid)

    def turns(self) -> Generator[int, Decision | None, list[AuditEntry]]:
        """Every agent's turn in the round's order: an ordinary one steps by its rule; an influence
        agent receives, yields its id and plays the decision sent back. Returns the audit."""
        entries: list[AuditEntry] = []
        for agent in self.round_order():
            if agent.offline:  # it called `complete`
                continue
            if agent.actor_id not in self.run.influence_ids:
                agent.step()
                continue
            agent.receive()
            decision = yield agent.actor_id
            entries.append(self.steered_turn(agent, decision))
        self._settle()
        return entries

    def steered_turn(self, a: CraftingAgent, decision: Decision | None) -> AuditEntry:
        """An influence agent's turn, resolved at once, and its audit entry: no decision (or a
        deferring one) plays the rule, a policy error sleeps, an invalid action is logged as such."""
        aid = a.actor_id
        with acting(aid, self.round):
            if decision is None or decision.defer:
                action = a.rule()
                ok, detail = self.execute(a, action)
                return AuditEntry(self.round, aid, action, _outcome(action, ok), detail, deferred=True)
            if decision.error is not None:
                self.execute(a, self.Action.null_action())
                return AuditEntry(self.round, aid, decision.action, "policy_error", decision.error)
            self._remember_rule(a, decision.action)
            action, reason = validate_action(decision.action)
            if action is None:
                self._record(a, {"tool": "invalid", "raw": decision.action}, False, reason, [])
                return AuditEntry(self.round, aid, decision.action, "invalid", reason)
            ok, detail = self.execute(a, action)
            return AuditEntry(self.round, aid, action, _outcome(action, ok), detail)

    def _settle(self) -> None:
        every = self.params.refill_every
        if every and (self.round + 1) % every == 0:
            for nid in self.stock:
                self.stock[nid] = min(self.max_stock[nid], self.stock[nid] + 1)
        self._world_events()
        survival.drain(self)
        combat.respawn(self)
        if self.strategy == "market":
            market.update_prices(self)
        self.price_history.append({i: round(p, 4) for i, p in sorted(self.prices.items())})
        shared_plan.update_blocked(self, since=self.round + 1)  # a block found now counts from the next round
        self.psr_curve.append(crafting_metrics.current_psr(self))
        self.psr_own_curve.append(crafting_metrics.current_psr(self, own=True))
        self._metrics_cache = None
        self.passed = self.verify()[0]  # asked every round, so a verifier that misbehaves stops the run early

    def stopping_rule(self) -> str | None:
        """`verifier`: success at the end of the first round the verifier passes; `complete`: done
        once every agent has called `complete` (the round limit is the horizon); `upstream`:
        AgentWorld's verifier cadence and end (episode.py)."""
        if self.ends_at == "upstream":
            return episode.stopping_rule(self)
        if self.ends_at == "verifier" and self.passed:
            return Status.SUCCESS
        if self.ends_at == "complete" and all(a.offline for a in self.actors):
            return Status.DONE
        return None

    @property
    def ends_at(self) -> str:
        """`verifier` (ours: the first round the verifier passes) or `complete` (AgentWorld's: the round
        limit, or every agent has called `complete`); `episode_end=auto` picks by the task's origin."""
        if self.params.episode_end != "auto":
            return self.params.episode_end
        return "complete" if self.task.from_agentworld else "verifier"

    def _world_events(self) -> None:
        """Regrowth and rival orders: one fixed-size draw per round from world streams."""
        nodes = list(self.cat.node_order)
        grow = stream(self.seed, "regrow", self.round).random(len(nodes))
        rival = stream(self.seed, "rivals", self.round).random(len(nodes))
        for k, nid in enumerate(nodes):
            if grow[k] < self.params.regrow and self.stock[nid] < self.max_stock[nid]:
                self.stock[nid] += 1
            if rival[k] < self.params.rivals and self.stock[nid] > 0:
                self.stock[nid] -= 1

    # --- contract: identities and horizon -----------------------------------------------------
    def actor_ids(self) -> list[int]:
        return list(range(len(self.actors)))

    def horizon(self) -> int:
        return self.budget

    # --- queries the rule and the observation use ------------------------------------------------
    def agent(self, actor_id: int) -> CraftingAgent:
        return self.actors[actor_id]

    def colocated(self, a: int, b: int) -> bool:
        return self.actors[a].site != "" and self.actors[a].site == self.actors[b].site

    @property
    def condition_now(self) -> str:
        """The condition this round plays (`discussion_rounds` switches it by round)."""
        return now(self.params.condition, self.params.discussion_rounds, self.round)

    def can_hand(self, a: int, b: int) -> bool:
        """Whether agent a can hand items to b now: AgentWorld's `transfer_items` works "regardless of
        the distance between the players" (its tool definition); in our tasks they share a site."""
        return self.task.from_agentworld or self.colocated(a, b)

    def move_toward(self, a: CraftingAgent, site: str) -> dict[str, Any]:
        return {"tool": "move_to", "site": site}

    # --- the market: open orders and prices -------------------------------------------------------
    def price(self, item: str) -> float:
        return self.prices.get(item, 1.0)

    def open_orders(self, item: str) -> list[dict[str, Any]]:
        return [o for o in self.orders if o["item"] == item and o["filled"] < o["qty"]]

    def orders_by_priority(self) -> list[dict[str, Any]]:
        """Highest price first, then oldest: the order a supplier serves."""
        live = [o for o in self.orders if o["filled"] < o["qty"]]
        return sorted(live, key=lambda o: (-self.price(o["item"]), o["id"]))

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """What the rule would do for this actor now (the mimic baseline).

        Asking alone changes nothing, or a controller that asks (`mimic`, the oracle) would steer
        by asking: the rule runs on copies of what it writes (the market rule's remembered goal;
        the shared plan's booked requests, outbox and what the leader asked). What the rule would
        have remembered is kept beside its answer, and kept by the agent only if it then plays
        that answer this round (`steered_turn`), as the rule itself would have."""
        import copy

        a = self.actors[actor_id]
        goal, asked = a.goal, dict(self.leader_asked)
        booked = None if self.strategy == "market" else copy.deepcopy((a.obligations, a.outbox, self.requests))
        try:
            action = a.rule()
            noted = {k: v for k, v in self.leader_asked.items() if asked.get(k) != v}
            self.rule_answers[actor_id] = (self.round, dict(action), a.goal, noted)
            return action
        finally:
            a.goal, self.leader_asked = goal, asked
            if booked is not None:
                a.obligations, a.outbox, self.requests = booked

    def _remember_rule(self, a: CraftingAgent, action: Any) -> None:
        """An influence agent that plays what its rule answered when asked this round keeps what
        the rule would have remembered (the `mimic` agent stays the rule's twin)."""
        answer = self.rule_answers.pop(a.actor_id, None)
        if answer is not None and answer[0] == self.round and answer[1] == action:
            a.goal = answer[2]
            self.leader_asked.update(answer[3])

    # --- contract: phases ---------------------------------------------------------------------
    def observe(self, actor_id: int) -> CraftingObservation:
        return observe_agent(self, actor_id)

    # --- action execution -------------------------------------------------------------------
    def action_index(self, a: CraftingAgent) -> int:
        """How many actions this agent has taken this round before the current one: with the round,
        the node or mob and the agent's id, the address of its yields and blows, which no other
        agent's actions can shift."""
        return self._acts.get((self.round, a.actor_id), 0)

    def _record(self, a: CraftingAgent, action: dict[str, Any], ok: bool, detail: str, parents: list[int]) -> int:
        rid = len(self.log)
        self._acts[(self.round, a.actor_id)] = self._acts.get((self.round, a.actor_id), 0) + 1
        args = {k: v for k, v in action.items() if k != "tool"}
        self.log.append(
            {
                "id": rid,
                "round": self.round,
                "agent": a.actor_id,
                "tool": action["tool"],
                "args": args,
                "ok": ok,
                "detail": detail,
                "site": a.site,
                "parents": sorted({p for p in parents if p >= 0}),
                **(
                    {"after": agentworld_trajectory.after_action(self, a.actor_id, action)}
                    if self.task.criteria
                    else {}
                ),
            }
        )
        self.last_outcome[a.actor_id] = f"{action['tool']}:{'ok' if ok else 'failed'}{' ' + detail if detail else ''}"
        self._metrics_cache = None
        return rid

    def execute(self, a: CraftingAgent, action: dict[str, Any]) -> tuple[bool, str]:
        """Apply one validated action at this agent's turn through its typed form (`action_table`);
        failures are logged, never raised. The log keeps the action dict as given."""
        act = typed(action)
        fail = precondition(self, a, act)
        if fail:
            self._record(a, action, False, fail, [])
            return False, fail
        parents, detail = act.apply(self, a, len(self.log))
        self._record(a, action, True, detail, parents)
        return True, detail

    # --- outcome ------------------------------------------------------------------------------
    def verify(self) -> tuple[int, str]:
        """(1 when the task's verifier passes, else 0; its checkpoint string)."""
        if self.task.criteria is not None:  # AgentWorld's own verifier, on the trajectory it reads
            if not self.log:  # as there, it reads a played trajectory (task 44's indexes an agent's last inventory)
                return 0, "no round played yet"
            return verify(self.task, states.final_state(self), agentworld_trajectory.trajectory(self))
        return verify(self.task, states.final_state(self), states.trajectory(self) if self.task.verifier else None)

    def collaboration(self) -> dict[str, Any]:
        """CCE (with and without chat), per-agent PAC and the contributing set."""
        return crafting_metrics.collaboration(self)

    def judge_chat_model(self) -> Any:
        """The CCE judge: any LangChain chat model, built like the LLM controller's (temperature 0)."""
        from mam_bench.registry import chat_model

        return chat_model(self.params.judge_model, self.params.judge_api_key_env, temperature=0.0)

    def metrics(self) -> dict[str, float]:
        if self._metrics_cache and self._metrics_cache[0] == self.round:
            return self._metrics_cache[1]
        out = crafting_metrics.outcome(self)
        self._metrics_cache = (self.round, out)
        return out

    def snapshot(self) -> dict[str, Any]:
        this_round = [e for e in self.log if e["round"] == self.round - 1]
        return {
            "task": self.task.name,  # the records name the task, so a row redraws on its own
            "agents": [
                {"id": a.actor_id, "site": a.site, "xy": list(a.xy), "inv": a.inventory(), "eq": sorted(a.equipment)}
                for a in self.actors
            ],
            "prices": {i: round(p, 4) for i, p in sorted(self.prices.items())},
            "orders": [[o["frm"], o["item"], o["qty"] - o["filled"]] for o in self.orders if o["filled"] < o["qty"]],
            "stock": dict(self.stock),
            "health": [self.health[a.actor_id] for a in self.actors],
            "mobs": dict(self.mob_health),
            "known": [sorted(a.known) for a in self.actors],
            "offers": [
                [o["id"], o["frm"], o["item"], o["qty"], o["want"], o["want_qty"]] for o in trading.open_offers(self)
            ],
            "actions": this_round,
            "checkpoints": self.verify()[1],
        }


def _outcome(action: dict[str, Any], ok: bool) -> str:
    if not ok:
        return "blocked"
    return "stay" if action["tool"] == "sleep" else "accepted"
