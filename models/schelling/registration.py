"""The Schelling world's one registration (entry point `mam_bench.worlds`: schelling)."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.schelling.model:SchellingWorld",
    heuristic="mam_bench.steering.heuristics.schelling:SchellingHeuristic",
    prompts="mam_bench.steering.llm.prompts.schelling:SchellingPrompts",
    renderer="mam_bench.dashboards.worlds.schelling",
    landscape=("threshold", "vacancy"),
    landscape_kernel="mam_bench.models.schelling.landscape:SchellingLandscape",
    featured=True,
    dashboard_seed=22,
)
