"""The pilot's Civil Violence cascade as a steerable world.

One step is a citizen phase, then a police phase. Each phase is played on the board as it stood at
the phase's start: agents claim, one at a time in the phase's seeded order, a destination among the
cells empty at that start (and not claimed before them), and everything claimed settles together at
the phase's end. Citizens released from jail come back at the start of the citizen phase.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Awaitable, Callable, Generator, Mapping
from math import exp
from typing import Any, ClassVar

import numpy as np
from pydantic import ValidationError

from mam_bench.models.civil_violence_cascade.actions import CascadeAction, action_dict
from mam_bench.models.civil_violence_cascade.draws import initial_draws, shuffled, slot_bounded, slot_random
from mam_bench.models.civil_violence_cascade.observe import CascadeObservation
from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.world import SteerableWorld

Cell = tuple[int, int]

#: the status a run ends with at its own stop (`stopping_rule`)
REVOLUTION = "revolution"


@functools.cache
def _cells(size: int) -> frozenset[Cell]:
    return frozenset((r, c) for r in range(size) for c in range(size))


def sigmoid(x: float) -> float:
    return 1 / (1 + exp(-x)) if x >= 0 else exp(x) / (1 + exp(x))


class CivilViolenceCascade(SteerableWorld):
    """Citizens turn active as their neighbours do; police move and arrest; 16 influence agents."""

    name: ClassVar[str] = "civil_violence_cascade"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    Params = CascadeParams
    Action = CascadeAction
    scoring = Scoring(
        summary="the pilot's Civil Violence cascade: participation (active or jailed), police or citizens",
        metric="participation",
        objectives={"increase": +1, "decrease": -1},
        secondary="revolution",
        reported=("active", "jailed"),
        masks_influence=True,
        default_influence=16,
        pilot_points={"participation": 100, "revolution": 100},
    )

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

    def _default_influence_ids(self, n: int) -> list[int]:
        """The pilot's replaced ids: drawn from the role's pool right after the set-up's draws."""
        p = self.params
        _, _, rng = initial_draws(self.seed, p.cells, self.n_citizens, p.preference_mean, p.preference_std)
        return sorted(int(i) for i in rng.choice(tuple(self.actor_ids()), n, replace=False))

    def horizon(self) -> int:
        return self.params.max_steps

    def stopping_rule(self) -> str | None:
        """The pilot's: each run ends at its first completed step with at least 95 % of the scored
        citizens active or jailed (checked before the horizon, so a revolution at the last step counts)."""
        return REVOLUTION if self.round > 0 and self.metrics()["revolution"] else None

    def _fork_memo(self) -> dict[int, Any]:
        """A fork shares the cached neighbourhoods (the same key always holds the same cells) and
        the phase's sight counts (replaced, never changed); the board's lists, sets and dicts hold
        cells (tuples of ints), ids, flags and numbers, so a shallow copy of each is a deep one."""
        memo = {**super()._fork_memo(), id(self._neighbours): self._neighbours}
        if self._sight is not None:
            memo[id(self._sight)] = self._sight
        for held in (self.location, self.active, self.jail, self.preference, self._at, self._vacant):
            memo[id(held)] = copy.copy(held)
        for held in (self._moves, self._claimed, self._activity, self._arrests):
            memo[id(held)] = dict(held)
        return memo

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
        self._vacant = _cells(self.size) - self._at.keys()
        #: the empty cells sorted, counted once a phase for every observation (None: count again)
        self._vacant_sorted: tuple[Cell, ...] | None = None
        self._moves: dict[int, Cell] = {}
        self._claimed: dict[Cell, int] = {}
        self._activity: dict[int, bool] = {}
        self._arrests: dict[int, int] = {}
        self._sight: list[list[list[int]]] | None = None

    def legal_destinations(self, agent_id: int) -> tuple[Cell, ...]:
        """Adjacent cells empty at the phase's start and not claimed yet (an ordinary agent's moves)."""
        vacant, claimed = self._vacant, self._claimed
        return tuple(c for c in self.neighbourhood(self.location[agent_id], 1) if c in vacant and c not in claimed)

    def eligible_targets(self, cell: Cell) -> list[int]:
        """Active citizens adjacent to `cell` whom no officer has claimed yet, by id."""
        taken = set(self._arrests.values())
        around = (self._at.get(c) for c in self.neighbourhood(cell, 1))
        return sorted(
            i for i in around if i is not None and not self.is_police(i) and self.active[i] and i not in taken
        )

    def counts(self, agent_id: int) -> tuple[int, int, int]:
        """(A, I, C) a citizen sees: 1 + active citizens, 1 + inactive citizens, police, in vision."""
        if 2 * self.params.vision + 1 <= self.size:  # no cell is in sight twice round the torus
            if self._sight is None:
                self._sight = self._sight_counts()
            row, col = self.location[agent_id]
            a, i, c = self._sight[row][col]
            return a + 1, i + 1, c
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

    def _sight_counts(self) -> list[list[list[int]]]:
        """Per cell, the active citizens, quiet citizens and police within vision of it (the cell
        itself left out), on the board as the phase froze it: one pass for every citizen's counts."""
        board = np.zeros((self.size, self.size, 3), dtype=np.int64)
        for (row, col), other in self._at.items():
            board[row, col, 2 if self.is_police(other) else 0 if self.active[other] else 1] = 1
        v = self.params.vision
        rows = sum(np.roll(board, d, axis=0) for d in range(-v, v + 1))
        square = sum(np.roll(rows, d, axis=1) for d in range(-v, v + 1))
        return (square - board).tolist()

    # --- the ordinary rule -------------------------------------------------------------------------
    def _slot(self, phase: str, agent_id: int, purpose: str, n: int) -> int:
        """The slot's uniform draw on 0..n-1 (`bounded` on its generator)."""
        return slot_bounded(self.seed, self.round, phase, agent_id, purpose, n)

    def citizen_rule(self, agent_id: int) -> tuple[bool, Cell | None]:
        """Activation `sigmoid(-preference + A^2/I - threshold) - (1 - exp(-2.3 C/A)) > U[0,1)`,
        then a uniform move among the legal adjacent cells (stay if none)."""
        a, i, c = self.counts(agent_id)
        x = -self.preference[agent_id] + a * a / i - self.params.threshold
        draw = slot_random(self.seed, self.round, "citizen", agent_id, "activation")
        active = sigmoid(x) - (1 - exp(-2.3 * c / a)) > draw
        return bool(active), self._uniform(self.legal_destinations(agent_id), "citizen", agent_id, "movement")

    def police_rule(self, agent_id: int) -> tuple[Cell | None, int | None]:
        """A uniform legal move, then a uniform eligible target adjacent to where it ends."""
        dest = self._uniform(self.legal_destinations(agent_id), "police", agent_id, "movement")
        targets = self.eligible_targets(dest or self.location[agent_id])
        return dest, self._uniform(targets, "police", agent_id, "target")

    def _uniform(self, options: Any, phase: str, agent_id: int, purpose: str) -> Any:
        if not options:
            return None
        return options[self._slot(phase, agent_id, purpose, len(options))]

    def _claim(self, agent_id: int, destination: Cell | None) -> None:
        if destination is not None:
            self._moves[agent_id] = destination
            self._claimed[destination] = agent_id

    # --- one step ----------------------------------------------------------------------------------
    def _order(self, phase: str, ids: list[int]) -> list[int]:
        """The phase's claim order. `first` (the pilot): the replaced ids, shuffled, before the rest,
        shuffled, in both runs; `turn`: one shuffle of everybody."""
        if self.params.priority == "turn":
            return shuffled(self.seed, self.round, phase, "_order_all", ids)
        replaced = set(self.run.mask_ids) | set(self.run.influence_ids)
        cohorts = [[i for i in ids if i in replaced], [i for i in ids if i not in replaced]]
        return [
            i
            for purpose, cohort in zip(("_order_selected", "_order_ordinary"), cohorts, strict=True)
            for i in shuffled(self.seed, self.round, phase, purpose, cohort)
        ]

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
                cell = choices[self._slot("citizen", i, "release", len(choices))]
                self.location[i], self.active[i] = cell, False
                self._at[cell] = i
                self._vacant.discard(cell)
                self._vacant_sorted = None
                self._sight = None

    def _step(self) -> Generator[int, Decision, list[AuditEntry]]:
        """One step; yields each influence agent's id at its turn and receives its decision."""
        influence, entries = set(self.run.influence_ids), []
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
            self.jail[target] = self._slot("police", target, "jail", self.params.max_jail + 1)
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
            return None, AuditEntry(self.round, aid, self.Action.null_action(), "policy_error", decision.error)
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
            objective=self.run.objective,
            priority=self.params.priority,
            location=here,
            active=None if police else self.active[actor_id],
            jail_remaining=0 if police else self.jail[actor_id],
            seen=tuple(seen),
            vacancies=tuple(c for c in self._sorted_vacancies() if c not in self._claimed),
            adjacent=self.legal_destinations(actor_id) if here is not None else (),
            targets=tuple(self.location[t] for t in self.eligible_targets(here)) if police else (),
            participation=round(self._participation(), 4),
        )

    def _sorted_vacancies(self) -> tuple[Cell, ...]:
        if self._vacant_sorted is None:
            self._vacant_sorted = tuple(sorted(self._vacant))
        return self._vacant_sorted

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
    def _scored(self) -> list[int]:
        masked = set(self.run.mask_ids)
        return [i for i in range(self.n_citizens) if i not in masked]

    def _joined(self, scored: list[int]) -> int:
        return sum(self.active[i] or self.location[i] is None for i in scored)

    def _participation(self) -> float:
        """The share of scored citizens active or jailed (what every observation shows), alone:
        the oracle's rollouts observe often and need none of the other metrics."""
        scored = self._scored()
        return self._joined(scored) / len(scored)

    def metrics(self) -> dict[str, float]:
        """Participation: scored citizens (the influence ids masked) active or jailed, as a share."""
        scored = self._scored()
        jailed = sum(self.location[i] is None for i in scored)
        active = sum(self.active[i] and self.location[i] is not None for i in scored)
        joined = self._joined(scored)
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
            "influence": list(self.run.influence_ids),
            "locations": [None if c is None else list(c) for c in self.location],
            "active": list(self.active),
            "jail": list(self.jail),
        }
