"""The Civil Violence cascade's one registration (entry point `mam_bench.worlds`: civil_violence_cascade)."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.civil_violence_cascade.model:CivilViolenceCascade",
    heuristic="mam_bench.models.civil_violence_cascade.heuristic:CascadeHeuristic",
    prompts="mam_bench.models.civil_violence_cascade.prompts:CascadePrompts",
    renderer="mam_bench.models.civil_violence_cascade.renderer",
    landscape=("threshold", "police_density"),
    landscape_kernel="mam_bench.models.civil_violence_cascade.landscape:CascadeLandscape",
)
