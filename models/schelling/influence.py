"""The influence agents' moves of one Schelling round, checked against the start-of-round board.

An influence agent may move to any empty cell. Its decision is classified in stable-id order
before the residents' wave: a failure or a stay is final at once; a deferral leaves it to the
rule, as an ordinary resident; a move to a cell empty at round start becomes a `Claim`. Under
`priority=first` (the pilot) the claims are settled before the wave, a lower id winning a
duplicate; under `priority=turn` each claim is tried at the agent's own slot of the wave.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mam_bench.models.schelling.actions import STAY, parse_action
from mam_bench.models.schelling.draws import rule_keys
from mam_bench.models.schelling.wave import Claim, OrdinaryPlan
from mam_bench.protocol import AuditEntry, Decision

if TYPE_CHECKING:
    from mam_bench.models.schelling.model import SchellingWorld


class InfluenceMoves:
    """One round's influence decisions: `entries` decided already, `deferred` ids, the `claims`
    tried in the wave, and the `first` moves settled before it (`priority=first`)."""

    def __init__(self, world: SchellingWorld, decisions: Mapping[int, Decision]) -> None:
        self.world = world
        self.in_turn = world.params.priority == "turn"
        self.entries: list[AuditEntry] = []
        self.deferred: list[int] = []
        self.claims: list[Claim] = []
        self.first: list[tuple[int, int, int]] = []
        for aid in world.run.influence_ids:
            self._classify(aid, decisions.get(aid, Decision.follow_rule()))
        if not self.in_turn:
            self._claim_first()

    def _classify(self, aid: int, d: Decision) -> None:
        w, rnd = self.world, self.world.round
        if d.defer:
            self.deferred.append(aid)
            return
        if d.error:
            self.entries.append(AuditEntry(rnd, aid, dict(STAY), "policy_error", d.error))
            return
        action, reason = parse_action(d.action)
        if action is None:
            raw = d.action if isinstance(d.action, dict) else repr(d.action)
            self.entries.append(AuditEntry(rnd, aid, raw, "invalid", reason or ""))
            return
        if action.get("stay"):
            self.entries.append(AuditEntry(rnd, aid, action, "stay"))
            return
        r, c = action["row"], action["col"]
        if not (0 <= r < w.size and 0 <= c < w.size):
            self.entries.append(AuditEntry(rnd, aid, action, "out_of_bounds"))
            return
        cell = r * w.size + c
        holder = int(w.board.ravel()[cell])
        if holder >= 0:
            self.entries.append(AuditEntry(rnd, aid, action, "occupied", f"held by {holder}"))
            return
        key = rule_keys(w.seed, rnd, aid)[0] if self.in_turn else 0.0
        self.claims.append(Claim(aid, cell, key))

    def _claim_first(self) -> None:
        """`priority=first` (the pilot): claims accepted before the wave, lower id wins a duplicate."""
        taken: set[int] = set()
        for claim in self.claims:
            action = self._target(claim.cell)
            if claim.cell in taken:
                self.entries.append(AuditEntry(self.world.round, claim.actor_id, action, "collision"))
                continue
            taken.add(claim.cell)
            self.first.append((claim.actor_id, int(self.world.pos[claim.actor_id]), claim.cell))
            self.entries.append(AuditEntry(self.world.round, claim.actor_id, action, "accepted"))

    def _target(self, cell: int) -> dict[str, int]:
        return {"row": cell // self.world.size, "col": cell % self.world.size}

    @property
    def steered(self) -> set[int]:
        """Influence agents the rule does not decide for this round."""
        return set(self.world.run.influence_ids) - set(self.deferred)

    @property
    def reserved(self) -> set[int]:
        """Cells taken before the wave (`priority=first`)."""
        return {dest for _, _, dest in self.first}

    @property
    def wave_claims(self) -> list[Claim]:
        """Claims tried at their own slots of the wave (`priority=turn`)."""
        return self.claims if self.in_turn else []

    def outcomes(self, plan: OrdinaryPlan) -> list[AuditEntry]:
        """Every influence agent's audit entry once the wave has run, in stable-id order."""
        entries = list(self.entries)
        if self.in_turn:
            entries += self._claims_in_turn(plan)
        entries += self._deferred_entries(plan)
        entries.sort(key=lambda e: e.actor_id)
        return entries

    def _claims_in_turn(self, plan: OrdinaryPlan) -> list[AuditEntry]:
        """Each claim's fate at its slot: a cell an ordinary agent reserved earlier makes it
        `occupied`; one an influence agent reserved earlier, `collision`."""
        influence = set(self.world.run.influence_ids)
        entries = []
        for claim in self.claims:
            action = self._target(claim.cell)
            holder = plan.claims[claim.actor_id]
            if holder is None:
                entries.append(AuditEntry(self.world.round, claim.actor_id, action, "accepted"))
            else:
                outcome = "collision" if holder in influence else "occupied"
                detail = f"reserved earlier by {holder}"
                entries.append(AuditEntry(self.world.round, claim.actor_id, action, outcome, detail))
        return entries

    def _deferred_entries(self, plan: OrdinaryPlan) -> list[AuditEntry]:
        """Deferring agents: where the rule took them, or that they stayed."""
        moved = {aid: dest for aid, _, dest in plan.moves}
        rnd = self.world.round
        return [
            AuditEntry(rnd, aid, self._target(moved[aid]), "accepted", deferred=True)
            if aid in moved
            else AuditEntry(rnd, aid, dict(STAY), "stay", deferred=True)
            for aid in self.deferred
        ]


def target_text(action: Any) -> str:
    """`r,c` for a well-formed move, `stay` for a stay, `?` for anything invalid."""
    parsed, _ = parse_action(action) if isinstance(action, dict) else (None, None)
    if parsed is None:
        return "?"
    return "stay" if parsed.get("stay") else f"{parsed['row']},{parsed['col']}"
