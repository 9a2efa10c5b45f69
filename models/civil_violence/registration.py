"""The civil violence world's one registration (entry point `mam_bench.worlds`: civil_violence), apart from its model,
so that listing worlds or running a landscape does not import Mesa for it."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.civil_violence.model:CivilViolenceWorld",
    heuristic="mam_bench.models.civil_violence.model:CivilViolenceHeuristic",
)
