"""The Schelling pilot as a steerable Mesa model (docs/worlds/schelling.md).

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
from mam_bench.models.schelling.fast.array_rule import FrozenBoard, world_wave
from mam_bench.models.schelling.fast.compiled_board import BoardState
from mam_bench.models.schelling.fast.compiled_wave import compiled_wave
from mam_bench.models.schelling.fast.pilot_wave import anyone_can_move, pilot_pick, pilot_wave
from mam_bench.models.schelling.fast.runs import cached_neighbours
from mam_bench.models.schelling.influence import InfluenceMoves, target_text
from mam_bench.models.schelling.metrics import edge_homophily, satisfied_share
from mam_bench.models.schelling.observe import VIEW, SchellingObservation, render_grid
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.models.schelling.seeding import ORDER, TIES, initial_board, stream_words
from mam_bench.models.schelling.wave import Claim, OrdinaryPlan, Wave
from mam_bench.params import fraction_text
from mam_bench.protocol import AuditEntry, Decision
from mam_bench.scoring import Scoring
from mam_bench.status import Status
from mam_bench.streams import recording, seeded
from mam_bench.world import SteerableWorld, play_round


class SchellingWorld(SteerableWorld):
    """20x20 torus, two groups, threshold 3/4; influence actors move to any empty cell."""

    name: ClassVar[str] = "schelling"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    Params = SchellingParams
    Action = SchellingAction
    scoring = Scoring(
        summary="Schelling segregation pilot: 20x20 torus, OEH masked, 16 influence actors",
        metric="oeh",
        objectives={"integrate": -1, "segregate": +1},
        secondary="satisfaction",
        masks_influence=True,
        treatment_stops_early=False,
        default_influence=16,
        pilot_points={"oeh": 400},
    )

    def __init__(self, params: SchellingParams | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(params, seed, **kwargs)
        p: SchellingParams = self.params
        #: False: every resident's own rule (`Resident.decide`) plays the wave through Mesa's AgentSet;
        #: True: the same wave on arrays (`fast/`), held to the residents' rule bit for bit (`engine`)
        self.fast_path = not p.plays_agents
        self.size = p.size
        self.num, self.den = p.threshold.numerator, p.threshold.denominator
        self.types = np.array([0] * p.n_a + [1] * (p.n_agents - p.n_a), dtype=np.int64)
        self.board = initial_board(p, self.seed)
        flat = self.board.ravel()
        self.pos = np.empty(p.n_agents, dtype=np.int64)
        self.pos[flat[flat >= 0]] = np.flatnonzero(flat >= 0)
        self._order_rng = seeded(stream_words(ORDER, p, self.seed))
        self._tie_rng = seeded(stream_words(TIES, p, self.seed))
        self.scored = np.ones(p.n_agents, dtype=bool)
        self.scored[list(self.run.mask_ids)] = False
        self.ordinary_moves = 0
        self.influence_moves = 0
        self.last_outcomes: tuple[tuple[int, str, str], ...] = ()

        #: the counts, satisfied cells and measures the fast path keeps across rounds
        self.board_state = (
            BoardState(self.board.ravel(), self.types, self.scored, cached_neighbours(p.size), self.num, self.den)
            if self.fast_path
            else None
        )
        self._grid: OrthogonalMooreGrid | None = None
        self._residents: dict[int, Resident] = {}
        if not self.fast_path:
            self._build_mesa()
        self.datacollector = DataCollector(
            model_reporters={
                "oeh": lambda m: m.metrics()["oeh"],
                "satisfaction": lambda m: m.metrics()["satisfaction"],
            }
        )
        self._metrics_cache: tuple[int, dict[str, float]] | None = None
        self._view_cache: tuple[int, dict[str, Any]] | None = None
        self._wave_cache: tuple[int, Wave] | None = None
        self._choice_cache: tuple[int, FrozenBoard] | None = None
        self._rule_plan: tuple[int, OrdinaryPlan] | None = None
        self._refresh_satisfaction()
        self.datacollector.collect(self)

    # --- the Mesa side: built when a Mesa consumer asks ---------------------------------------------
    def _build_mesa(self) -> None:
        """The Mesa grid and the residents on it, where the arrays say they stand now. The array
        path plays without them (at a million agents they would cost more than the rounds), so
        they are built on first use (`grid`, `residents`, `agents`) and kept in step from then on."""
        if self._grid is not None:
            return
        size, influence = self.params.size, set(self.run.influence_ids)
        self._grid = OrthogonalMooreGrid((size, size), torus=True, capacity=1, random=self.random)
        sat = self.satisfied_grid.ravel() if hasattr(self, "satisfied_grid") else None
        for aid in range(self.params.n_agents):
            cell = self._grid[divmod(int(self.pos[aid]), size)]
            resident = Resident(self, cell, aid, int(self.types[aid]), aid in influence)
            if sat is not None:
                resident.satisfied = bool(sat[self.pos[aid]])
            self._residents[aid] = resident

    @property
    def grid(self) -> OrthogonalMooreGrid:
        self._build_mesa()
        return self._grid

    @property
    def residents(self) -> dict[int, Resident]:
        self._build_mesa()
        return self._residents

    @property
    def agents(self) -> AgentSet:
        if getattr(self, "_grid", 0) is None:  # Mesa's own set, once the residents exist
            self._build_mesa()
        return super().agents

    # --- the round -------------------------------------------------------------------------------
    def resolve_round(self, decisions: Mapping[int, Decision]) -> list[AuditEntry] | None:
        """One round: the influence agents' moves are checked against the start-of-round board,
        the residents decide in the round's seeded order (`wave`), and everyone moves at once
        (`apply`)."""
        influence = InfluenceMoves(self, decisions)
        plan = self.wave(influence.steered, influence.reserved, influence.wave_claims)
        entries = influence.outcomes(plan)
        self.apply(influence.first + plan.moves)
        self.last_outcomes = tuple((e.actor_id, e.outcome, target_text(e.action)) for e in entries)
        return entries

    def wave(self, steered: set[int], reserved: set[int], claims: list[Claim]) -> OrdinaryPlan:
        """Every unhappy resident but the `steered` influence agents, in the seeded order, reserves
        a vacancy of the frozen board (`Resident.decide`); `reserved` cells were taken before the
        wave, `claims` are tried at their owners' slots. The array fast path makes the same plan."""
        if not (steered or reserved or claims) and self._rule_plan is not None and self._rule_plan[0] == self.round:
            return self._rule_plan[1]  # the plan the stopping rule made from this very board
        if self.fast_path and self.params.rule == "pilot_v2":  # its claims are settled before the wave
            return pilot_wave(self, steered, reserved)
        if self.fast_path:
            compiled = self.params.streams == "isolated" and not recording()
            return (compiled_wave if compiled else world_wave)(self, steered, reserved, claims)
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
        influence = set(self.run.influence_ids)
        self.ordinary_moves = sum(1 for aid, _, _ in moves if aid not in influence)
        self.influence_moves = len(moves) - self.ordinary_moves
        if self.board_state is not None:
            self.board_state.apply(self.board.ravel(), self.pos, self.types, self.scored, moves)
        else:
            settle(self.board, self.pos, moves)
        if self._grid is not None:
            for aid, _, dest in moves:
                self._residents[aid].destination = self._grid[divmod(dest, self.size)]
            self.agents.do("apply")
        self._metrics_cache = None
        self._view_cache = None
        self._wave_cache = None
        self._choice_cache = None
        self._refresh_satisfaction()

    def step(self) -> None:
        """Mesa's step. Schelling's rest is what the next round would do (move nobody), so, as the
        pilot's loop does, the call that finds it plays none and ends Mesa's loop: Mesa's count of
        calls takes it in (`mesa.batch_run` reads the final row at that count less one)."""
        if self._done:
            self.running = False
            return
        play_round(self)
        self.running = self.round < self._reference_cap()

    def stopping_rule(self) -> str | None:
        """At rest, the next round's all-rule plan says: nobody unhappy (equilibrium), or nobody
        unhappy can move (blocked). That plan is the next round's own and is kept for it, so each
        round's order and tie draws are drawn once (the pilot's order stream is a shared one). At the
        reference's cap there is no next round to plan: the run is cut there (horizon_exhausted)."""
        if self.round >= self._reference_cap():
            return None
        plan = self.wave(set(), set(), [])
        self._rule_plan = (self.round, plan)
        if plan.unhappy == 0:
            return Status.EQUILIBRIUM
        return Status.BLOCKED if not plan.moves else None

    def draws(self) -> PilotDraws | IsolatedDraws | HashedDraws:
        """This round's order and tie draws in the chosen stream design."""
        if self.params.rule == "pilot_v2":
            return HashedDraws(self.seed, self.round, self.run.mask_ids, self.params.n_agents)
        if self.params.streams == "pilot":
            return PilotDraws(self._order_rng, self._tie_rng)
        return IsolatedDraws(self.seed, self.round)

    def _refresh_satisfaction(self) -> None:
        """Who is satisfied on the current board: computed once per board state, read by the
        metrics, the observations and the Mesa agents."""
        if self.board_state is not None:
            self.satisfied_grid = self.board_state.sat.reshape(self.board.shape)
        else:
            tg = type_grid(self.board, self.types)
            ca, cb = neighbour_counts(tg)
            self.satisfied_grid = satisfied_cells(tg, ca, cb, self.num, self.den)
        sat = self.satisfied_grid.ravel()
        for aid, agent in self._residents.items():
            agent.satisfied = bool(sat[self.pos[aid]])

    # --- identities and horizon ----------------------------------------------------------------
    def actor_ids(self) -> list[int]:
        return list(range(self.params.n_agents))

    def _default_influence_ids(self, n: int) -> list[int]:
        """Half the lowest ids of each group (the pilot: 0-7 and 150-157); A gets an odd one."""
        n_a = self.params.n_a
        take_a = min((n + 1) // 2, n_a)
        take_b = min(n - take_a, self.params.n_agents - n_a)
        take_a = n - take_b
        return list(range(take_a)) + list(range(n_a, n_a + take_b))

    def _reference_cap(self) -> int:
        """pilot_v2: the pilot's ordinary world stops at rest or at the horizon (its max_steps), and
        its controlled world plays the horizon: both final states are compared."""
        return self.params.rounds if self.params.rule == "pilot_v2" else self.params.max_rounds

    # --- phases ---------------------------------------------------------------------------------
    def _shared_view(self) -> dict[str, Any]:
        """The part of an observation every influence actor shares, built once per round: the
        board-wide counts, and the board itself where it fits one view (`observe.VIEW`)."""
        if self._view_cache is not None and self._view_cache[0] == self.round:
            return self._view_cache[1]
        m = self.metrics()
        unhappy = ~self.satisfied_grid.ravel()[self.pos]
        unhappy[list(self.run.influence_ids)] = False
        by_group = np.bincount(self.types[unhappy], minlength=2)
        view = {
            "round": self.round,
            "size": self.size,
            "threshold": self.params.threshold,
            "dissatisfied": (int(by_group[0]), int(by_group[1])),
            "objective": self.run.objective,
            "oeh": round(m["oeh"], 4),
            "satisfaction": round(m["satisfaction"], 4),
            "influence": tuple(
                (i, GROUPS[int(self.types[i])], *divmod(int(self.pos[i]), self.size)) for i in self.run.influence_ids
            ),
            "last_outcomes": self.last_outcomes,
            "priority": self.params.priority,
        }
        if self.size <= VIEW:
            view["groups"] = tuple(tuple(r) for r in type_grid(self.board, self.types).tolist())
            view["grid"] = render_grid(self.board, self.types, self.satisfied_grid, set(self.run.influence_ids))
        self._view_cache = (self.round, view)
        return view

    def observe(self, actor_id: int) -> SchellingObservation:
        r, c = divmod(int(self.pos[actor_id]), self.size)
        shared = self._shared_view()
        if "grid" not in shared:  # a VIEW x VIEW window around the agent, on the torus
            rows = (r - VIEW // 2 + np.arange(VIEW)) % self.size
            cols = (c - VIEW // 2 + np.arange(VIEW)) % self.size
            ids = self.board[np.ix_(rows, cols)]
            shared = {
                **shared,
                "origin": (int(rows[0]), int(cols[0])),
                "groups": tuple(tuple(g) for g in type_grid(ids, self.types).tolist()),
                "grid": render_grid(
                    ids, self.types, self.satisfied_grid[np.ix_(rows, cols)], set(self.run.influence_ids)
                ),
            }
        return SchellingObservation(actor_id=actor_id, group=GROUPS[int(self.types[actor_id])], row=r, col=c, **shared)

    def action_schema(self) -> dict[str, Any]:
        """The strict action schema with row and col bounded by this board's size."""
        return action_schema(self.size)

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """What the rule would do for `actor_id` now: stay when satisfied, else the nearest vacancy of
        the start-of-round board that would satisfy it (ties by its own tie key), else stay.

        Reservations by others are not known yet (they are simultaneous), so a mimic claims its first
        choice blind: under `priority=turn` it fails where an earlier agent reserved that cell (the
        rule would take its next choice) and collides with other influence agents; under `first` it
        also reserves before every ordinary agent. That difference is what `mimic` measures.
        """
        if self.fast_path:
            if self.satisfied_grid.ravel()[self.pos[actor_id]]:
                return dict(STAY)
            if self.params.rule == "pilot_v2":
                pick = pilot_pick(self, actor_id)
                return dict(STAY) if pick is None else dict(zip(("row", "col"), divmod(pick, self.size)))
            if self._choice_cache is None or self._choice_cache[0] != self.round:
                self._choice_cache = (self.round, FrozenBoard(self))
            choices = self._choice_cache[1].choices(actor_id)
            if choices.size == 0:
                return dict(STAY)
            pick = choices[tie_index(rule_keys(self.seed, self.round, actor_id)[1], choices.size)]
            r, c = divmod(int(pick), self.size)
            return {"row": r, "col": c}
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
        if self.fast_path and self.params.rule == "pilot_v2":
            unhappy = np.flatnonzero(~self.satisfied_grid.ravel()[self.pos])
            if not unhappy.size:
                return Status.EQUILIBRIUM
            return Status.MOVING if anyone_can_move(self, unhappy) else Status.BLOCKED
        if self.fast_path and self.params.streams == "isolated" and not recording():
            # a wave with everyone on the rule moves someone iff someone can move
            plan = compiled_wave(self, set(), set(), [])
            if plan.unhappy == 0:
                return Status.EQUILIBRIUM
            return Status.MOVING if plan.moves else Status.BLOCKED
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
        out = {
            **(self._measures() if self.board_state is None else self._compiled_measures()),
            "ordinary_moves": self.ordinary_moves if self.round else 0,
            "influence_moves": self.influence_moves if self.round else 0,
        }
        self._metrics_cache = (self.round, out)
        return out

    def _measures(self) -> dict[str, float]:
        all_ids = np.ones_like(self.scored)
        sat = self.satisfied_grid
        return {
            "oeh": edge_homophily(self.board, self.types, self.scored),
            "satisfaction": satisfied_share(self.board, self.scored, sat),
            "oeh_all": edge_homophily(self.board, self.types, all_ids),
            "satisfaction_all": satisfied_share(self.board, all_ids, sat),
            "dissatisfied": int(((self.board >= 0) & ~sat & self.scored[np.maximum(self.board, 0)]).sum()),
        }

    def _compiled_measures(self) -> dict[str, float]:
        """`_measures` from the integers `BoardState` keeps, divided as `metrics.py` divides them."""
        same_s, pairs_s, same_a, pairs_a, n_s, sat_s, n_a, sat_a, unhappy = self.board_state.totals.tolist()
        if pairs_s == 0:
            raise ValueError("edge homophily is undefined: no pair of scored agents are neighbours")
        return {
            "oeh": same_s / pairs_s,
            "satisfaction": float(sat_s) / n_s if n_s else 1.0,
            "oeh_all": same_a / pairs_a,
            "satisfaction_all": float(sat_a) / n_a if n_a else 1.0,
            "dissatisfied": int(unhappy),
        }

    def snapshot(self) -> dict[str, Any]:
        """Everything that redraws the board, by actor id: flat cell (row * size + col), group
        (0 = A, 1 = B), satisfied now, as arrays (the records' columns); plus the threshold and the
        influence ids. Readers never recompute satisfaction or re-derive groups."""
        return {
            "size": self.size,
            "threshold": fraction_text(self.params.threshold),
            "influence": list(self.run.influence_ids),
            "positions": self.pos.copy(),
            "groups": self.types.copy(),
            "satisfied": self.satisfied_grid.ravel()[self.pos],
        }

    @staticmethod
    def declared_target(actor_id: int, text: str) -> dict[str, Any] | None:
        """The pilot's post shorthand ('ID -> r,c', 'ID -> hold') read for its author."""
        return declared_target(actor_id, text)
