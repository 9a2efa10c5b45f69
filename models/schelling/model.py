"""The Schelling pilot as a steerable Mesa model (spec/schelling.md sections 1-3 and 5).

Mesa's `step()` plays one round, `resolve_round` below: the influence agents' moves, then every
unhappy resident's `decide` in the round's seeded order on the frozen board, then everyone's
`apply`. `fast/` plays the same wave on arrays, which the world uses by default for speed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from mesa.agent import AgentSet
from mesa.datacollection import DataCollector
from mesa.discrete_space import OrthogonalMooreGrid

from mam_bench.models.schelling.actions import STAY, SchellingAction, action_schema, declared_target
from mam_bench.models.schelling.agents import GROUPS, Resident
from mam_bench.models.schelling.board import neighbour_counts, satisfied_cells, settle, type_grid
from mam_bench.models.schelling.draws import HashedDraws, IsolatedDraws, PilotDraws, rule_keys, tie_index
from mam_bench.models.schelling.fast.array_rule import world_wave
from mam_bench.models.schelling.influence import InfluenceMoves, target_text
from mam_bench.models.schelling.metrics import edge_homophily, satisfied_share
from mam_bench.models.schelling.observe import SchellingObservation, render_grid
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import ORDER, TIES, initial_board, stream_words
from mam_bench.models.schelling.wave import Claim, OrdinaryPlan, Wave
from mam_bench.params import fraction_text
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.status import Status
from mam_bench.streams import seeded
from mam_bench.world import SteerableWorld


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
        pilot_points={"oeh": 400},
    )
    treatment_stops_early: ClassVar[bool] = False
    default_influence: ClassVar[int] = 16
    #: the wave runs on the array fast path (`fast/array_rule.py`); False plays it through the
    #: residents' own rule (`Resident.decide`), the reference the fast path is held to
    fast_path: ClassVar[bool] = True

    def __init__(self, params: SchellingParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        p: SchellingParams = self.params
        if p.rule == "pilot_v2":
            self.fast_path = False  # the array kernel plays our rules only; pilot_v2 runs the residents' own
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

    # --- the round -------------------------------------------------------------------------------
    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry] | None:
        """One round: the influence agents' moves are checked against the start-of-round board,
        the residents decide in the round's seeded order (`wave`), and everyone moves at once
        (`apply`). A reference that finds nothing to do is at rest and plays no round (None)."""
        influence = InfluenceMoves(self, decisions)
        plan = self.wave(influence.steered, influence.reserved, influence.wave_claims)
        if self.role == "reference" and self._at_rest(plan):
            return None
        entries = influence.outcomes(plan)
        self.apply(influence.first + plan.moves)
        self.last_outcomes = tuple((e.actor_id, e.outcome, target_text(e.action)) for e in entries)
        return entries

    def wave(self, steered: set[int], reserved: set[int], claims: list[Claim]) -> OrdinaryPlan:
        """Every unhappy resident but the `steered` influence agents, in the seeded order, reserves
        a vacancy of the frozen board (`Resident.decide`); `reserved` cells were taken before the
        wave, `claims` are tried at their owners' slots. The array fast path makes the same plan."""
        if self.fast_path:
            return world_wave(self, steered, reserved, claims)
        draws = self.draws()
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

    def apply(self, moves: list[tuple[int, int, int]]) -> None:
        """Every reserved move at once, on the arrays the metrics read and on the residents."""
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

    def _at_rest(self, plan: OrdinaryPlan) -> bool:
        """Nobody unhappy (equilibrium), or nobody unhappy can move (blocked): the reference stops."""
        if plan.unhappy == 0:
            self.status = Status.EQUILIBRIUM
        elif not plan.moves:
            self.status = Status.BLOCKED
        return self.status != Status.RUNNING

    def draws(self) -> PilotDraws | IsolatedDraws | HashedDraws:
        """This round's order and tie draws in the chosen stream design."""
        if self.params.rule == "pilot_v2":
            return HashedDraws(self.seed, self.round, self.mask_ids, self.params.n_agents)
        if self.params.streams == "pilot":
            return PilotDraws(self._order_rng, self._tie_rng)
        return IsolatedDraws(self.seed, self.round)

    def _refresh_satisfaction(self) -> None:
        """Who is satisfied on the current board: computed once per board state, read by the
        metrics, the observations and the Mesa agents."""
        tg = type_grid(self.board, self.types)
        ca, cb = neighbour_counts(tg)
        self.satisfied_grid = satisfied_cells(tg, ca, cb, self.num, self.den)
        sat = self.satisfied_grid.ravel()
        for aid, agent in self.residents.items():
            agent.satisfied = bool(sat[self.pos[aid]])

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

    def horizon(self) -> int:
        return self.params.rounds

    def reference_cap(self) -> int:
        """pilot_v2: the pilot's ordinary world stops at rest or at the horizon (its max_steps), and
        its controlled world plays the horizon: both final states are compared."""
        return self.params.rounds if self.params.rule == "pilot_v2" else self.params.max_rounds

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
    def legal_actions(cls, observation: SchellingObservation) -> list[dict[str, Any]]:
        """Staying, or a move to any cell empty at round start."""
        return [dict(STAY), *({"row": r, "col": c} for r, c in observation.vacancies())]

    @classmethod
    def random_action(cls, observation: SchellingObservation, rng: np.random.Generator) -> dict[str, Any]:
        """Uniform over staying and every cell empty at round start."""
        vac = observation.vacancies()
        k = int(rng.integers(len(vac) + 1))
        if k == len(vac):
            return dict(STAY)
        return {"row": vac[k][0], "col": vac[k][1]}

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
        if self.params.rule == "pilot_v2":
            pick = self.draws().tie(actor_id, len(choices))
        else:
            pick = tie_index(rule_keys(self.seed, self.round, actor_id)[1], len(choices))
        r, c = choices[pick].coordinate
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
            if e.outcome == "accepted" and isinstance(e.action, dict) and "row" in e.action:
                parts.append(f"{e.actor_id}->{e.action['row']},{e.action['col']}")
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
