"""The supply-chain world's one registration (entry point `mam_bench.worlds`: supply_chain), apart
from its model, so that listing worlds does not import Mesa for it."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.supply_chain.world:SupplyChainWorld",
    heuristic="mam_bench.models.supply_chain.heuristic:SupplyChainHeuristic",
)
