"""The Schelling world's one registration (entry point `mam_bench.worlds`: schelling)."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.schelling.model:SchellingWorld",
    heuristic="mam_bench.models.schelling.heuristic:SchellingHeuristic",
    prompts="mam_bench.models.schelling.prompts:SchellingPrompts",
    renderer="mam_bench.models.schelling.renderer",
    landscape=("threshold", "vacancy"),
    landscape_kernel="mam_bench.models.schelling.landscape:SchellingLandscape",
    featured=True,
    dashboard_seed=5,  # the seed the README's first run explains
)
