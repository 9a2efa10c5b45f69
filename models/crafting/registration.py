"""The crafting world's one registration (entry point `mam_bench.worlds`: crafting)."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.crafting.model:CraftingWorld",
    heuristic="mam_bench.steering.heuristics.crafting:make_crafting_heuristic",
    prompts="mam_bench.steering.llm.prompts.crafting:CraftingPrompts",
    renderer="mam_bench.dashboards.worlds.crafting",
    tasks=True,
)
