"""The crafting world's one registration (entry point `mam_bench.worlds`: crafting)."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.crafting.model:CraftingWorld",
    heuristic="mam_bench.models.crafting.heuristic:make_crafting_heuristic",
    prompts="mam_bench.models.crafting.prompts:CraftingPrompts",
    renderer="mam_bench.models.crafting.renderer",
    tasks=True,
    judge="mam_bench.models.crafting.judge:judge_outcomes",
    analyses=(("agentworld", "mam_bench.models.crafting.table2:agentworld_table"),),
)
