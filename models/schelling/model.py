"""The Schelling pilot as a steerable Mesa model (spec/schelling.md sections 1-3 and 5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from mesa.agent import AgentSet
from mesa.datacollection import DataCollector
from mesa.discrete_space import OrthogonalMooreGrid

from mam_bench.controller import Decision
from mam_bench.models.schelling.actions import STAY, SchellingAction, action_schema, declared_target, parse_action
from mam_bench.models.schelling.agents import GROUPS, Resident
from mam_bench.models.schelling.array_rule import (
    neighbour_counts,
    ordinary_phase,
    satisfied_cells,
    settle,
    type_grid,
)
from mam_bench.models.schelling.draws import IsolatedDraws, PilotDraws, rule_keys, tie_index
from mam_bench.models.schelling.metrics import edge_homophily, satisfied_share
from mam_bench.models.schelling.observe import SchellingObservation, render_grid
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import ORDER, TIES, initial_board, stream_words
from mam_bench.models.schelling.wave import Claim, OrdinaryPlan, Wave
from mam_bench.params import fraction_text
from mam_bench.scoring import Scoring
from mam_bench.streams import seeded
from mam_bench.world import AuditEntry, Status, SteerableWorld


def _target_text(proposal: Any) -> str:
    """`r,c` for a well-formed move, `stay` for a stay, `?` for anything invalid."""
    action, _ = parse_action(proposal) if isinstance(proposal, dict) else (None, None)
    if action is None:
        return "?"
    return "stay" if action.get("stay") else f"{action['row']},{action['col']}"


class SchellingWorld(SteerableWorld):
    """20x20 torus, two groups, threshold 3/4; influence actors move to any empty cell."""

    name: ClassVar[str] = "schelling"
    summary: ClassVar[str] = "Schelling segregation pilot: 20x20 torus, OEH masked, 16 influence actors"
    Params = SchellingParams
    Action = SchellingAction
    scoring = Scoring(
        metric="oeh",
        objectives={"integrate": -1, "segregate": +1},
        secondary="satisfaction",
        masks_influence=True,
    )
    treatment_stops_early: ClassVar[bool] = False
    default_influence: ClassVar[int] = 16
    #: rounds run on the array fast path (`array_rule`); False plays every round through the
    #: agents' own rule (`Resident.decide`, then `apply`), the reference the fast path is held to
    fast_path: ClassVar[bool] = True

    def __init__(self, params: SchellingParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        p: SchellingParams = self.params
        self.size = p.size
        self.num, self.den = p.threshold.numerator, p.threshold.denominator
        self.types = np.array([0] * p.n_a + [1] * (p.n_agents - p.n_a), dtype=np.int64)
        self.board = initial_board(p, self.seed)
        flat = self.board.ravel()
        self.pos = np.empty(p.n_agents, dtype=np.int64)
        self.pos[flat[flat >= 0]] = np.flatnonzero(flat >= 0)
        self._order_rng = seeded(stream_words(ORDER, p, self.seed))
        self._tie_rng = seeded(stream_words(TIES, p, self.seed))
        influence = set(self.influence_ids)
        self.movable = np.ones(p.n_agents, dtype=bool)
        self.scored = np.ones(p.n_agents, dtype=bool)
        self.scored[list(self.mask_ids)] = False
        self.ordinary_moves = 0
        self.influence_moves = 0
        self.last_outcomes: tuple[tuple[int, str, str], ...] = ()

        self.grid = OrthogonalMooreGrid((p.size, p.size), torus=True, capacity=1, random=self.random)
        self.residents: dict[int, Resident] = {}
        for aid in range(p.n_agents):
            r, c = divmod(int(self.pos[aid]), p.size)
            self.residents[aid] = Resident(self, self.grid[(r, c)], aid, int(self.types[aid]), aid in influence)
        self.datacollector = DataCollector(
            model_reporters={
                "oeh": lambda m: m.metrics()["oeh"],
                "satisfaction": lambda m: m.metrics()["satisfaction"],
            }
        )
        self._metrics_cache: tuple[int, dict[str, float]] | None = None
        self._view_cache: tuple[int, dict[str, Any]] | None = None
        self._wave_cache: tuple[int, Wave] | None = None
        self._refresh_satisfaction()
        self.datacollector.collect(self)

    @classmethod
    def reference_outcome(cls, params: SchellingParams, seed: int, max_rounds: int | None = None) -> dict:
        """One reference run on the bare kernel, for landscapes (same numbers as the world)."""
        from mam_bench.models.schelling.landscape import reference_outcome

        return reference_outcome(params, seed, max_rounds)

    # --- identities and horizon ----------------------------------------------------------------
    def actor_ids(self) -> list[int]:
        return list(range(self.params.n_agents))

    def default_influence_ids(self, n: int) -> list[int]:
        """Half the lowest ids of each group (the pilot: 0-7 and 150-157); A gets an odd one."""
        n_a = self.params.n_a
        take_a = min((n + 1) // 2, n_a)
        take_b = min(n - take_a, self.params.n_agents - n_a)
        take_a = n - take_b
        return list(range(take_a)) + list(range(n_a, n_a + take_b))

    def treatment_rounds(self) -> int:
        return self.params.rounds

    def reference_cap(self) -> int:
        return self.params.max_rounds

    # --- phases ---------------------------------------------------------------------------------
    def _shared_view(self) -> dict[str, Any]:
        """The part of an observation every influence actor shares, built once per round."""
        if self._view_cache is not None and self._view_cache[0] == self.round:
            return self._view_cache[1]
        m = self.metrics()
        tg = type_grid(self.board, self.types)
        ordinary = tg >= 0
        if self.influence_ids:
            ordinary &= ~np.isin(self.board, self.influence_ids)
        unhappy = ordinary & ~self.satisfied_grid
        view = {
            "round": self.round,
            "size": self.size,
            "threshold": self.params.threshold,
            "groups": tuple(tuple(r) for r in tg.tolist()),
            "dissatisfied": (int((unhappy & (tg == 0)).sum()), int((unhappy & (tg == 1)).sum())),
            "objective": self.objective,
            "oeh": round(m["oeh"], 4),
            "satisfaction": round(m["satisfaction"], 4),
            "grid": render_grid(self.board, self.types, self.satisfied_grid, set(self.influence_ids)),
            "influence": tuple(
                (i, GROUPS[int(self.types[i])], *divmod(int(self.pos[i]), self.size)) for i in self.influence_ids
            ),
            "last_outcomes": self.last_outcomes,
            "priority": self.params.priority,
        }
        self._view_cache = (self.round, view)
        return view

    def observe(self, actor_id: int) -> SchellingObservation:
        r, c = divmod(int(self.pos[actor_id]), self.size)
        return SchellingObservation(
            actor_id=actor_id, group=GROUPS[int(self.types[actor_id])], row=r, col=c, **self._shared_view()
        )

    def action_schema(self) -> dict[str, Any]:
        """The strict action schema with row and col bounded by this board's size."""
        return action_schema(self.size)

    @classmethod
    def null_action(cls) -> dict[str, Any]:
        return dict(STAY)

    @classmethod
    def random_action(cls, observation: SchellingObservation, rng: np.random.Generator) -> dict[str, Any]:
        """Uniform over staying and every cell empty at round start."""
        vac = observation.vacancies()
        k = int(rng.integers(len(vac) + 1))
        if k == len(vac):
            return dict(STAY)
        return {"row": vac[k][0], "col": vac[k][1]}

    def _draws(self) -> PilotDraws | IsolatedDraws:
        """This round's order and tie draws in the chosen stream design."""
        if self.params.streams == "pilot":
            return PilotDraws(self._order_rng, self._tie_rng)
        return IsolatedDraws(self.seed, self.round)

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """What the rule would do for `actor_id` now: stay when satisfied, else the nearest vacancy of
        the start-of-round board that would satisfy it (ties by its own tie key), else stay.

        Reservations by others are not known yet (they are simultaneous), so a mimic claims its first
        choice blind: under `priority=turn` it fails where an earlier agent reserved that cell (the
        rule would take its next choice) and collides with other influence agents; under `first` it
        also reserves before every ordinary agent. That difference is what `mimic` measures.
        """
        resident = self.residents[actor_id]
        if resident.satisfied:
            return dict(STAY)
        choices = resident.choices(self._frozen_wave())
        if not choices:
            return dict(STAY)
        _, tie_key = rule_keys(self.seed, self.round, actor_id)
        r, c = choices[tie_index(tie_key, len(choices))].coordinate
        return {"row": r, "col": c}

    def horizon_status(self) -> str:
        """Where the treatment stands at its horizon, every resident back on the rule (the
        reference's own test of rest): nobody unhappy (equilibrium), no unhappy resident with a
        vacancy to go to (blocked), else still moving."""
        unhappy = [r for r in self.residents.values() if not r.satisfied]
        if not unhappy:
            return Status.EQUILIBRIUM
        wave = self._frozen_wave()
        return Status.MOVING if any(r.choices(wave) for r in unhappy) else Status.BLOCKED

    def _frozen_wave(self) -> Wave:
        """The start-of-round board with nothing reserved, built once per round for every actor."""
        if self._wave_cache is None or self._wave_cache[0] != self.round:
            self._wave_cache = (self.round, Wave(self, None))
        return self._wave_cache[1]

    def _influence_phase(self, decisions: Mapping[int, Decision]) -> tuple[list[AuditEntry], list[int], list[Claim]]:
        """Classify influence proposals against the start-of-round board, in stable-id order: what
        fails or stays now, who defers to the rule, and the claims on cells empty at round start."""
        entries: list[AuditEntry] = []
        deferred: list[int] = []
        claims: list[Claim] = []
        flat = self.board.ravel()
        for aid in self.influence_ids:
            d = decisions.get(aid, Decision.follow_rule())
            if d.defer:
                deferred.append(aid)
                continue
            if d.error:
                entries.append(AuditEntry(self.round, aid, dict(STAY), "policy_error", d.error))
                continue
            action, reason = parse_action(d.action)
            if action is None:
                entries.append(
                    AuditEntry(
                        self.round,
                        aid,
                        d.action if isinstance(d.action, dict) else repr(d.action),
                        "invalid",
                        reason or "",
                    )
                )
                continue
            if action.get("stay"):
                entries.append(AuditEntry(self.round, aid, action, "stay"))
                continue
            r, c = action["row"], action["col"]
            if not (0 <= r < self.size and 0 <= c < self.size):
                entries.append(AuditEntry(self.round, aid, action, "out_of_bounds"))
                continue
            cell = r * self.size + c
            if flat[cell] >= 0:
                entries.append(AuditEntry(self.round, aid, action, "occupied", f"held by {int(flat[cell])}"))
                continue
            key = rule_keys(self.seed, self.round, aid)[0] if self.params.priority == "turn" else 0.0
            claims.append(Claim(aid, cell, key))
        return entries, deferred, claims

    def _claims_first(self, claims: list[Claim]) -> tuple[list[AuditEntry], list[tuple[int, int, int]]]:
        """`priority=first` (the pilot): claims accepted before the wave, lower id wins a duplicate."""
        entries: list[AuditEntry] = []
        moves: list[tuple[int, int, int]] = []
        taken: set[int] = set()
        for claim in claims:
            aid, cell = claim.actor_id, claim.cell
            action = {"row": cell // self.size, "col": cell % self.size}
            if cell in taken:
                entries.append(AuditEntry(self.round, aid, action, "collision"))
            else:
                taken.add(cell)
                moves.append((aid, int(self.pos[aid]), cell))
                entries.append(AuditEntry(self.round, aid, action, "accepted"))
        return entries, moves

    def _claims_in_turn(self, claims: list[Claim], resolved: dict[int, int | None]) -> list[AuditEntry]:
        """`priority=turn`: each claim's fate at its slot in the wave. A cell an ordinary agent
        reserved earlier makes it `occupied`; one an influence agent reserved earlier, `collision`."""
        entries: list[AuditEntry] = []
        influence = set(self.influence_ids)
        for claim in claims:
            action = {"row": claim.cell // self.size, "col": claim.cell % self.size}
            holder = resolved[claim.actor_id]
            if holder is None:
                entries.append(AuditEntry(self.round, claim.actor_id, action, "accepted"))
            elif holder in influence:
                entries.append(
                    AuditEntry(self.round, claim.actor_id, action, "collision", f"reserved earlier by {holder}")
                )
            else:
                entries.append(
                    AuditEntry(self.round, claim.actor_id, action, "occupied", f"reserved earlier by {holder}")
                )
        return entries

    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry] | None:
        """One round: influence proposals checked against the start-of-round board, the reservation
        wave (claims at their own slots under `priority=turn`, all before it under `first`), then
        every move at once. A reference that finds nothing to do is at rest and plays no round
        (None: the runner stops it there)."""
        entries, deferred, claims = self._influence_phase(decisions)
        turn = self.params.priority == "turn"
        ia_moves: list[tuple[int, int, int]] = []
        if not turn:
            first_entries, ia_moves = self._claims_first(claims)
            entries += first_entries
        steered = set(self.influence_ids) - set(deferred)
        plan = self._wave(steered, {dest for _, _, dest in ia_moves}, claims if turn else [])
        if self.role == "reference" and self._at_rest(plan):
            return None
        if turn:
            entries += self._claims_in_turn(claims, plan.claims)
        entries += self._deferred_entries(deferred, plan)
        entries.sort(key=lambda e: e.actor_id)
        self._settle(ia_moves + plan.moves)
        self.last_outcomes = tuple((e.actor_id, e.outcome, _target_text(e.proposal)) for e in entries)
        return entries

    def _wave(self, steered: set[int], reserved: set[int], claims: list[Claim]) -> OrdinaryPlan:
        """The round's reservation wave on the frozen board: unhappy agents the rule decides for
        (everyone but the `steered` influence agents) and the claims, in the stream design's seeded
        order; `reserved` cells were taken before the wave. Played on arrays when `fast_path`."""
        if not self.fast_path:
            return self._agents_wave(steered, reserved, claims)
        self.movable[:] = True
        if steered:
            self.movable[list(steered)] = False
        return ordinary_phase(
            self.board,
            self.types,
            self.pos,
            self.movable,
            self.num,
            self.den,
            reserved,
            self._draws(),
            self.params.move_rule,
            claims or None,
        )

    def _agents_wave(self, steered: set[int], reserved: set[int], claims: list[Claim]) -> OrdinaryPlan:
        """The reference: each resident in the wave's order decides through the AgentSet."""
        draws = self._draws()
        wave = Wave(self, draws, reserved)
        unhappy = self.agents.select(lambda a: a.actor_id not in steered and not a.is_satisfied())
        wave.plan.unhappy = len(unhappy)
        ids = np.array(sorted(a.actor_id for a in unhappy), dtype=np.int64)
        order = draws.order(ids) if ids.size else ids
        slots = draws.slots(order, claims) if claims else [(int(aid), None) for aid in order.tolist()]
        for claim in claims:
            self.residents[claim.actor_id].claim = self.grid[divmod(claim.cell, self.size)]
        AgentSet([self.residents[aid] for aid, _ in slots], random=self.random).do("decide", wave)
        for claim in claims:
            self.residents[claim.actor_id].claim = None
        return wave.plan

    def _at_rest(self, plan: OrdinaryPlan) -> bool:
        """Nobody unhappy (equilibrium), or nobody unhappy can move (blocked): the reference stops."""
        if plan.unhappy == 0:
            self.status = Status.EQUILIBRIUM
        elif not plan.moves:
            self.status = Status.BLOCKED
        return self.status != Status.RUNNING

    def _deferred_entries(self, deferred: list[int], plan: OrdinaryPlan) -> list[AuditEntry]:
        """Influence agents that deferred to the rule: where the rule took them, or that they stayed."""
        moved = {aid: dest for aid, _, dest in plan.moves}
        entries = []
        for aid in deferred:
            if aid in moved:
                r, c = divmod(moved[aid], self.size)
                entries.append(AuditEntry(self.round, aid, {"row": r, "col": c}, "accepted", deferred=True))
            else:
                entries.append(AuditEntry(self.round, aid, dict(STAY), "stay", deferred=True))
        return entries

    def _settle(self, moves: list[tuple[int, int, int]]) -> None:
        """Every reserved move at once, on the arrays the metrics read and on the Mesa agents."""
        influence = set(self.influence_ids)
        self.ordinary_moves = sum(1 for aid, _, _ in moves if aid not in influence)
        self.influence_moves = len(moves) - self.ordinary_moves
        settle(self.board, self.pos, moves)
        for aid, _, dest in moves:
            self.residents[aid].destination = self.grid[divmod(dest, self.size)]
        self.agents.do("apply")
        self._metrics_cache = None
        self._view_cache = None
        self._wave_cache = None
        self._refresh_satisfaction()

    def _refresh_satisfaction(self) -> None:
        """Who is satisfied on the current board: computed once per board state, read by the
        metrics, the observations and the Mesa agents."""
        tg = type_grid(self.board, self.types)
        ca, cb = neighbour_counts(tg)
        self.satisfied_grid = satisfied_cells(tg, ca, cb, self.num, self.den)
        sat = self.satisfied_grid.ravel()
        for aid, agent in self.residents.items():
            agent.satisfied = bool(sat[self.pos[aid]])

    # --- outcome --------------------------------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        if self._metrics_cache is not None and self._metrics_cache[0] == self.round:
            return self._metrics_cache[1]
        all_ids = np.ones_like(self.scored)
        sat = self.satisfied_grid
        unhappy = int(((self.board >= 0) & ~sat & self.scored[np.maximum(self.board, 0)]).sum())
        out = {
            "oeh": edge_homophily(self.board, self.types, self.scored),
            "satisfaction": satisfied_share(self.board, self.scored, sat),
            "oeh_all": edge_homophily(self.board, self.types, all_ids),
            "satisfaction_all": satisfied_share(self.board, all_ids, sat),
            "dissatisfied": unhappy,
            "ordinary_moves": self.ordinary_moves if self.round else 0,
            "influence_moves": self.influence_moves if self.round else 0,
        }
        self._metrics_cache = (self.round, out)
        return out

    def snapshot(self) -> dict[str, Any]:
        """Everything that redraws the board, by actor id: flat cell (row * size + col), group
        (0 = A, 1 = B), satisfied now; plus the threshold and the influence ids. Readers never
        recompute satisfaction or re-derive groups."""
        return {
            "size": self.size,
            "threshold": fraction_text(self.params.threshold),
            "influence": list(self.influence_ids),
            "positions": self.pos.tolist(),
            "groups": self.types.tolist(),
            "satisfied": self.satisfied_grid.ravel()[self.pos].tolist(),
        }

    def facts(self, entries: list[AuditEntry]) -> list[str]:
        parts = []
        for e in entries:
            if e.outcome == "accepted" and isinstance(e.proposal, dict) and "row" in e.proposal:
                parts.append(f"{e.actor_id}->{e.proposal['row']},{e.proposal['col']}")
            else:
                parts.append(f"{e.actor_id}:{e.outcome}")
        m = self.metrics()
        return [
            " ".join(parts) + f" | oeh {m['oeh']:.4f} sat {m['satisfaction']:.4f} ordinary_moves {self.ordinary_moves}"
        ]

    def declared_action(self, actor_id: int, text: str) -> dict[str, Any] | None:
        return declared_target(actor_id, text)

    @staticmethod
    def declared_target(actor_id: int, text: str) -> dict[str, Any] | None:
        """The pilot's post shorthand ('ID -> r,c', 'ID -> hold') read for its author."""
        return declared_target(actor_id, text)
