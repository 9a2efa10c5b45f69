"""Asking a world what its rule would do changes nothing: `mimic` and the oracle ask it every
round, so a world whose answer moved its own state (an agent's remembered goal) would play a
different future only because a controller asked, and the oracle's rollouts would not predict its
own play."""

from __future__ import annotations

from typing import Any

import pytest

from mam_bench.capabilities import RuleActions
from mam_bench.registry import get_world, world_names
from mam_bench.testing import _prep, check_world, rule_action_is_pure

ASKING = [get_world(n) for n in world_names() if isinstance(get_world(n), RuleActions)]


@pytest.mark.parametrize("cls", ASKING, ids=lambda c: c.name)
@pytest.mark.parametrize("seed", [3, 518])
def test_asking_the_rules_action_changes_nothing(cls: Any, seed: int) -> None:
    assert rule_action_is_pure(_prep(cls, seed, 15, 2, {})) == []


@pytest.mark.parametrize("strategy", ["market", "shared_plan"])
@pytest.mark.parametrize("task", ["forge_vanguard", "goblin_clearing"])
@pytest.mark.parametrize("seed", [501, 518])
def test_crafting_asked_plays_as_never_asked(task: str, strategy: str, seed: int) -> None:
    """Where it showed: forge_vanguard on seed 518, a market agent's remembered goal moved when
    asked, and the oracle's live play left the plan its rollouts scored (its lift -0.163 against
    the `rule` tail's 0 in 15 rounds)."""
    cls = get_world("crafting")
    assert rule_action_is_pure(_prep(cls, seed, 15, 2, {"task": task, "strategy": strategy})) == []


def test_check_world_catches_a_rule_action_that_moves_state() -> None:
    from tests.core.test_fork import SteeredGarden

    class Remembering(SteeredGarden):
        def rule_action(self, actor_id: int) -> dict[str, Any]:
            agent = self.actors()[actor_id]
            agent.height += 1  # asking grows the plant: the future now depends on who asked
            return {"grow": False}

    with pytest.raises(AssertionError, match="rule_action: asking it changed the world"):
        check_world(Remembering, seeds=(0,), rounds=6)
