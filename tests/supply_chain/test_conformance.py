"""check_world on the supply chain (null steering exact, isolation, audit, fork), with step and
noisy demand, and the check failing on a rule that reads who is steered."""

from __future__ import annotations

import pytest

from mam_bench.models.supply_chain.model import Firm
from mam_bench.models.supply_chain.world import SupplyChainWorld
from mam_bench.testing import check_world


@pytest.mark.parametrize("demand", ["step", "noise"])
def test_check_world_passes(demand: str) -> None:
    params = {"firms_per_tier": "3", "suppliers": "2", "demand": demand}
    assert check_world(SupplyChainWorld, seeds=(0, 5), rounds=8, influence=3, params=params)["seeds"] == 2


def test_check_world_sees_a_rule_that_knows_it_is_steered(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = Firm.rule_order

    def leaky(self: Firm) -> float:
        world = getattr(self.model, "steered_by", None)
        return honest(self) + (1.0 if world else 0.0)

    monkeypatch.setattr(Firm, "rule_order", leaky)
    original_init = SupplyChainWorld.__init__

    def marking(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self.model.steered_by = bool(self.run.influence_ids)

    monkeypatch.setattr(SupplyChainWorld, "__init__", marking)
    with pytest.raises(AssertionError, match="null steering"):
        check_world(SupplyChainWorld, seeds=(0,), rounds=6, influence=2, params={"firms_per_tier": "2"})
