"""A test-only world: Schelling with a stand-in `rule_action` (a random legal move from the actor's
own addressed stream), so the automatic `mimic` baseline can run before Schelling has its own."""

from __future__ import annotations

from typing import Any

from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.streams import agent_stream


class MimicSchelling(SchellingWorld):
    name = "test-mimic-schelling"

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        rng = agent_stream(self.seed, "test.rule_action", self.round, actor_id)
        return self.Action.random_action(self.observe(actor_id), rng)


class NoRuleSchelling(SchellingWorld):
    """Schelling without a rule_action, as a user's world may be: `mimic` cannot be played on it."""

    name = "test-no-rule-schelling"
    rule_action = None  # blocks the RuleActions capability it inherits
