"""The pilot's Civil Violence cascade as a steerable world.

One step is a citizen phase, then a police phase. Each phase is played on the board as it stood at
the phase's start: agents claim, one at a time in the phase's seeded order, a destination among the
cells empty at that start (and not claimed before them), and everything claimed settles together at
the phase's end. Citizens released from jail come back at the start of the citizen phase.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Mapping
from math import exp
from typing import Any, ClassVar

from pydantic import ValidationError

from mam_bench.models.civil_violence_cascade.actions import CascadeAction, action_dict
from mam_bench.models.civil_violence_cascade.draws import agent_rng, bounded, initial_draws, pilot_rng
from mam_bench.models.civil_violence_cascade.observe import CascadeObservation
from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.status import Status
from mam_bench.world import SteerableWorld

Cell = tuple[int, int]

#: the status a run ends with at its own stop (`stopping_rule`)
REVOLUTION = "revolution"


def sigmoid(x: float) -> float:
    return 1 / (1 + exp(-x)) if x >= 0 else exp(x) / (1 + exp(x))


class CivilViolenceCascade(SteerableWorld):
    """Citizens turn active as their neighbours do; police move and arrest; 16 influence agents."""

    name: ClassVar[str] = "civil_violence_cascade"
    summary: ClassVar[str] = "the pilot's Civil Violence cascade: participation (active or jailed), police or citizens"
    Params = CascadeParams
    Action = CascadeAction
    scoring = Scoring(
        metric="participation",
        objectives={"increase": +1, "decrease": -1},
        secondary="revolution",
        reported=("active", "jailed"),
        masks_influence=True,
        pilot_points={"participation": 100, "revolution": 100},
    )
    default_influence: ClassVar[int] = 16
    #: an influence agent decides at its turn of its phase (a police officer sees the settled citizens)
    decides_per_turn: ClassVar[bool] = True

    def __init__(self, params: CascadeParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        p: CascadeParams = self.params
        self.size, self.n_citizens, self.n_police = p.size, p.n_citizens, p.n_police
        cells, self.preference, _ = initial_draws(
            self.seed, p.cells, self.n_citizens, p.preference_mean, p.preference_std
        )
        #: where each agent stands, by id (citizens 0.., police after them); None: in jail
        self.location: list[Cell | None] = [
            divmod(int(cells[i]), self.size) for i in range(self.n_citizens + self.n_police)
        ]
        self.active = [False] * self.n_citizens
        self.jail = [0] * self.n_citizens
        self._neighbours: dict[tuple[Cell, int], tuple[Cell, ...]] = {}
        self._begin()

    # --- identities and horizon ----------------------------------------------------------------
    def is_police(self, agent_id: int) -> bool:
        return agent_id >= self.n_citizens

    def actor_ids(self) -> list[int]:
        if self.params.controlled_role == "police":
            return list(range(self.n_citizens, self.n_citizens + self.n_police))
        return list(range(self.n_citizens))

    def default_influence_ids(self, n: int) -> list[int]:
        """The pilot's replaced ids: drawn from the role's pool right after the set-up's draws."""
        p = self.params
        _, _, rng = initial_draws(self.seed, p.cells, self.n_citizens, p.preference_mean, p.preference_std)
        return sorted(int(i) for i in rng.choice(tuple(self.actor_ids()), n, replace=False))

    def horizon(self) -> int:
        return self.params.max_steps

    #: the landscape's line per cell: (header, outcome, statistic over the seeds)
    landscape_summary: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("mean_part", "final_participation", "mean"),
        ("sd_part", "final_participation", "sd"),
        ("rev_share", "final_revolution", "mean"),
    )

    @classmethod
    def reference_outcome(cls, params: CascadeParams, seed: int, max_rounds: int | None = None) -> dict[str, Any]:
        """One all-rule run as a pair's reference plays it (the pilot's replaced ids masked; it stops at
        revolution or max_steps, or at max_rounds if sooner): `mam-bench landscape`'s row."""
        ids = cls(params, seed=seed).default_influence_ids(cls.influence_count(params))
        world = cls(params, seed=seed, mask_ids=ids)
        cap = world.reference_cap() if max_rounds is None else min(max_rounds, world.reference_cap())
        while not world.done and world.round < cap:
            world.play_round()
        m = world.metrics()
        return {
            "status": world.status if world.done else Status.HORIZON_EXHAUSTED,
            "rounds": world.round,
            "final_participation": m["participation"],
            "final_revolution": m["revolution"],
        }

    def stopping_rule(self) -> str | None:
        """The pilot's: each run ends at its first completed step with at least 95 % of the scored
        citizens active or jailed (checked before the horizon, so a revolution at the last step counts)."""
        return REVOLUTION if self.metrics()["revolution"] else None

    def fork_memo(self) -> dict[int, Any]:
        """A fork shares the cached neighbourhoods: the same key always holds the same cells."""
        return {**super().fork_memo(), id(self._neighbours): self._neighbours}

    # --- the board -------------------------------------------------------------------------------
    def neighbourhood(self, cell: Cell, radius: int) -> tuple[Cell, ...]:
        """The Moore cells within `radius` on the torus, without `cell`, sorted (the pilot's order)."""
        key = (cell, radius)
        if key not in self._neighbours:
            n, r = self.size, min(radius, self.size)
            around = {((cell[0] + dr) % n, (cell[1] + dc) % n) for dr in range(-r, r + 1) for dc in range(-r, r + 1)}
            self._neighbours[key] = tuple(sorted(around - {cell}))
        return self._neighbours[key]

    def _begin(self) -> None:
        """Freeze the board for a phase: who stands where, which cells are empty; nothing claimed."""
        self._at: dict[Cell, int] = {c: i for i, c in enumerate(self.location) if c is not None}
        self._vacant = {(r, c) for r in range(self.size) for c in range(self.size)} - set(self._at)
        self._moves: dict[int, Cell] = {}
        self._claimed: dict[Cell, int] = {}
        self._activity: dict[int, bool] = {}
        self._arrests: dict[int, int] = {}

    def _free(self, cell: Cell) -> bool:
        return cell in self._vacant and cell not in self._claimed

    def legal_destinations(self, agent_id: int) -> tuple[Cell, ...]:
        """Adjacent cells empty at the phase's start and not claimed yet (an ordinary agent's moves)."""
        return tuple(c for c in self.neighbourhood(self.location[agent_id], 1) if self._free(c))

    def eligible_targets(self, cell: Cell) -> list[int]:
        """Active citizens adjacent to `cell` whom no officer has claimed yet, by id."""
        taken = set(self._arrests.values())
        around = (self._at.get(c) for c in self.neighbourhood(cell, 1))
        return sorted(
            i for i in around if i is not None and not self.is_police(i) and self.active[i] and i not in taken
        )

    def counts(self, agent_id: int) -> tuple[int, int, int]:
        """(A, I, C) a citizen sees: 1 + active citizens, 1 + inactive citizens, police, in vision."""
        a, i, c = 1, 1, 0
        for cell in self.neighbourhood(self.location[agent_id], self.params.vision):
            other = self._at.get(cell)
            if other is None:
                continue
            if self.is_police(other):
                c += 1
            elif self.active[other]:
                a += 1
            else:
                i += 1
        return a, i, c

    # --- the ordinary rule -------------------------------------------------------------------------
    def _slot(self, phase: str, agent_id: int, purpose: str) -> Any:
        return agent_rng(self.seed, self.round, phase, agent_id, purpose)

    def citizen_rule(self, agent_id: int) -> tuple[bool, Cell | None]:
        """Activation `sigmoid(-preference + A^2/I - threshold) - (1 - exp(-2.3 C/A)) > U[0,1)`,
        then a uniform move among the legal adjacent cells (stay if none)."""
        a, i, c = self.counts(agent_id)
        x = -self.preference[agent_id] + a * a / i - self.params.threshold
        active = sigmoid(x) - (1 - exp(-2.3 * c / a)) > self._slot("citizen", agent_id, "activation").random()
        return bool(active), self._uniform(self.legal_destinations(agent_id), "citizen", agent_id, "movement")

    def police_rule(self, agent_id: int) -> tuple[Cell | None, int | None]:
        """A uniform legal move, then a uniform eligible target adjacent to where it ends."""
        dest = self._uniform(self.legal_destinations(agent_id), "police", agent_id, "movement")
        targets = self.eligible_targets(dest or self.location[agent_id])
        return dest, self._uniform(targets, "police", agent_id, "target")

    def _uniform(self, options: Any, phase: str, agent_id: int, purpose: str) -> Any:
        if not options:
            return None
        return options[bounded(self._slot(phase, agent_id, purpose), len(options))]

    def _claim(self, agent_id: int, destination: Cell | None) -> None:
        if destination is not None:
            self._moves[agent_id] = destination
            self._claimed[destination] = agent_id

    # --- one step ----------------------------------------------------------------------------------
    def _order(self, phase: str, ids: list[int]) -> list[int]:
        """The phase's claim order. `first` (the pilot): the replaced ids, shuffled, before the rest,
        shuffled, in both runs; `turn`: one shuffle of everybody."""
        if self.params.priority == "turn":
            pilot_rng(self.seed, self.round, phase, 0, "_order_all").shuffle(ids)
            return ids
        replaced = set(self.mask_ids) | set(self.influence_ids)
        cohorts = [[i for i in ids if i in replaced], [i for i in ids if i not in replaced]]
        for purpose, cohort in zip(("_order_selected", "_order_ordinary"), cohorts, strict=True):
            pilot_rng(self.seed, self.round, phase, 0, purpose).shuffle(cohort)
        return cohorts[0] + cohorts[1]

    def _release(self) -> None:
        """Jailed citizens serve a step; one whose term is over returns, inactive, to a random cell
        empty at the phase's start (when there is one)."""
        for i in range(self.n_citizens):
            if self.location[i] is not None:
                continue
            if self.jail[i] > 0:
                self.jail[i] -= 1
            elif self._vacant:
                choices = sorted(self._vacant)
                cell = choices[bounded(self._slot("citizen", i, "release"), len(choices))]
                self.location[i], self.active[i] = cell, False
                self._at[cell] = i
                self._vacant.discard(cell)

    def _step(self) -> Generator[int, Decision, list[AuditEntry]]:
        """One step; yields each influence agent's id at its turn and receives its decision."""
        influence, entries = set(self.influence_ids), []
        self._begin()
        self._release()
        for i in self._order("citizen", list(range(self.n_citizens))):
            if i in influence:
                entries.append(self._citizen_turn(i, (yield i)))
            elif self.location[i] is not None:
                active, dest = self.citizen_rule(i)
                self._activity[i] = active
                self._claim(i, dest)
        for i, active in self._activity.items():
            self.active[i] = active
        for i, cell in self._moves.items():
            self.location[i] = cell
        self._begin()
        for i in self._order("police", list(range(self.n_citizens, self.n_citizens + self.n_police))):
            if i in influence:
                entries.append(self._police_turn(i, (yield i)))
            else:
                dest, target = self.police_rule(i)
                self._claim(i, dest)
                if target is not None:
                    self._arrests[i] = target
        for target in self._arrests.values():
            self.location[target] = None
            self.jail[target] = bounded(self._slot("police", target, "jail"), self.params.max_jail + 1)
        for i, cell in self._moves.items():
            self.location[i] = cell
        self._begin()
        return sorted(entries, key=lambda e: e.actor_id)

    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry]:
        step = self._step()
        try:
            aid = next(step)
            while True:
                aid = step.send(decisions.get(aid, Decision.follow_rule()))
        except StopIteration as done:
            return done.value

    async def aresolve_round_per_turn(self, decide: Callable[[int], Awaitable[Decision]]) -> list[AuditEntry]:
        step = self._step()
        try:
            aid = next(step)
            while True:
                aid = step.send(await decide(aid))
        except StopIteration as done:
            return done.value

    # --- influence turns ---------------------------------------------------------------------------
    def _parse(self, aid: int, decision: Decision) -> tuple[CascadeAction | None, AuditEntry | None]:
        """The decision's action, or the entry that records why there is none (the null action is played)."""
        if decision.error:
            return None, AuditEntry(self.round, aid, self.null_action(), "policy_error", decision.error)
        try:
            return CascadeAction.model_validate(decision.action), None
        except ValidationError as exc:
            shown = decision.action if isinstance(decision.action, dict) else repr(decision.action)
            return None, AuditEntry(self.round, aid, shown, "invalid", exc.errors()[0]["msg"])

    def _destination_error(self, aid: int, dest: Cell | None) -> tuple[str, str] | None:
        if dest is None:
            return None
        if not (0 <= dest[0] < self.size and 0 <= dest[1] < self.size):
            return "out_of_bounds", ""
        if dest not in self._vacant:
            return "occupied", "not empty at the phase's start"
        if dest in self._claimed:
            return "collision", f"claimed earlier by {self._claimed[dest]}"
        return None

    def _citizen_turn(self, aid: int, decision: Decision) -> AuditEntry:
        if self.location[aid] is None:  # jailed: a turn for the board only
            return AuditEntry(self.round, aid, {}, "stay", "jailed", deferred=decision.defer)
        if decision.defer:
            active, dest = self.citizen_rule(aid)
            self._activity[aid] = active
            self._claim(aid, dest)
            outcome = "stay" if dest is None else "accepted"
            return AuditEntry(self.round, aid, action_dict(active, dest), outcome, deferred=True)
        action, failed = self._parse(aid, decision)
        if action is not None and action.target is not None:
            failed = AuditEntry(
                self.round,
                aid,
                action_dict(action.active, action.destination, action.target),
                "invalid",
                "citizens do not arrest",
            )
        elif action is not None and (why := self._destination_error(aid, action.destination)):
            failed = AuditEntry(self.round, aid, action_dict(action.active, action.destination), *why)
        if failed is not None:  # the whole action fails: activity kept, no move
            return failed
        active = self.active[aid] if action.active is None else action.active
        self._activity[aid] = active
        self._claim(aid, action.destination)
        outcome = "accepted" if action.destination is not None or active != self.active[aid] else "stay"
        return AuditEntry(self.round, aid, action_dict(action.active, action.destination), outcome)

    def _police_turn(self, aid: int, decision: Decision) -> AuditEntry:
        if decision.defer:
            dest, target = self.police_rule(aid)
            self._claim(aid, dest)
            if target is not None:
                self._arrests[aid] = target
            shown = action_dict(None, dest, None if target is None else self.location[target])
            return AuditEntry(self.round, aid, shown, "stay" if shown == {} else "accepted", deferred=True)
        action, failed = self._parse(aid, decision)
        if action is not None:
            shown = action_dict(None, action.destination, action.target)
            if action.active is not None:
                failed = AuditEntry(self.round, aid, shown, "invalid", "police have no activity")
            elif why := self._destination_error(aid, action.destination):
                failed = AuditEntry(self.round, aid, shown, *why)
            elif action.target is not None:
                at = self._at.get(action.target)
                if at not in self.eligible_targets(action.destination or self.location[aid]):
                    failed = AuditEntry(self.round, aid, shown, "invalid", "no unclaimed active citizen adjacent there")
        if failed is not None:  # the whole action fails: no move, no arrest
            return failed
        self._claim(aid, action.destination)
        if action.target is not None:
            self._arrests[aid] = self._at[action.target]
        return AuditEntry(self.round, aid, shown, "stay" if shown == {} else "accepted")

    # --- what an influence agent sees --------------------------------------------------------------
    def observe(self, actor_id: int) -> CascadeObservation:
        """Its own state, the cells within its vision, the cells it may claim now, and (police) the
        active citizens it could arrest from where it stands."""
        here, police = self.location[actor_id], self.is_police(actor_id)
        seen = []
        if here is not None:
            for cell in self.neighbourhood(here, self.params.vision):
                other = self._at.get(cell)
                if other is not None:
                    kind = "police" if self.is_police(other) else ("active" if self.active[other] else "quiet")
                    seen.append((*cell, kind, other))
        return CascadeObservation(
            actor_id=actor_id,
            role="police" if police else "citizen",
            step=self.round,
            max_steps=self.params.max_steps,
            size=self.size,
            vision=self.params.vision,
            objective=self.objective,
            priority=self.params.priority,
            location=here,
            active=None if police else self.active[actor_id],
            jail_remaining=0 if police else self.jail[actor_id],
            seen=tuple(seen),
            vacancies=tuple(sorted(c for c in self._vacant if c not in self._claimed)),
            adjacent=self.legal_destinations(actor_id) if here is not None else (),
            targets=tuple(self.location[t] for t in self.eligible_targets(here)) if police else (),
            participation=round(self.metrics()["participation"], 4),
        )

    @classmethod
    def null_action(cls) -> dict[str, Any]:
        return {}

    @classmethod
    def random_action(cls, observation: CascadeObservation, rng: Any) -> dict[str, Any]:
        """Uniform over staying and every free cell; a citizen's activity a fair coin; an officer
        that stays arrests a uniform one of its targets or nobody."""
        if observation.location is None:
            return {}
        k = int(rng.integers(len(observation.vacancies) + 1))
        dest = observation.vacancies[k] if k < len(observation.vacancies) else None
        if observation.role == "citizen":
            return action_dict(bool(rng.integers(2)), dest)
        targets = observation.targets if dest is None else ()
        t = int(rng.integers(len(targets) + 1))
        return action_dict(None, dest, targets[t] if t < len(targets) else None)

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """What the rule would do now, from the board as the agent's phase freezes it."""
        if self.location[actor_id] is None:
            return {}
        if self.is_police(actor_id):
            dest, target = self.police_rule(actor_id)
            return action_dict(None, dest, None if target is None else self.location[target])
        active, dest = self.citizen_rule(actor_id)
        return action_dict(active, dest)

    # --- outcome -----------------------------------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        """Participation: scored citizens (the influence ids masked) active or jailed, as a share."""
        masked = set(self.mask_ids)
        scored = [i for i in range(self.n_citizens) if i not in masked]
        jailed = sum(self.location[i] is None for i in scored)
        active = sum(self.active[i] and self.location[i] is not None for i in scored)
        joined = sum(self.active[i] or self.location[i] is None for i in scored)
        everyone = sum(a or c is None for a, c in zip(self.active, self.location))
        return {
            "participation": joined / len(scored),
            "revolution": float(joined * 100 >= len(scored) * 95),
            "active": active / len(scored),
            "jailed": jailed / len(scored),
            "participation_all": everyone / self.n_citizens,
        }

    def snapshot(self) -> dict[str, Any]:
        """Everything that redraws the board: each agent's cell (None: jailed), each citizen's
        activity and jail term, where police ids begin, and the influence ids."""
        return {
            "size": self.size,
            "first_police": self.n_citizens,
            "influence": list(self.influence_ids),
            "locations": [None if c is None else list(c) for c in self.location],
            "active": list(self.active),
            "jail": list(self.jail),
        }

    def facts(self, entries: list[AuditEntry]) -> list[str]:
        parts = []
        for e in entries:
            act = e.action if isinstance(e.action, dict) else {}
            where = f"->{act['row']},{act['col']}" if "row" in act else ""
            arrest = f" arrest {act['target_row']},{act['target_col']}" if "target_row" in act else ""
            stance = {True: " active", False: " quiet"}.get(act.get("active"), "")
            parts.append(f"{e.actor_id}:{e.outcome}{where}{stance}{arrest}")
        m = self.metrics()
        return [" ".join(parts) + f" | participation {m['participation']:.4f}"]
