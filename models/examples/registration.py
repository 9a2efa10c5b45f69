"""The worked examples' registrations (entry points `mam_bench.worlds`), apart from their models,
so that listing worlds or running a landscape does not import Mesa for them."""

from mam_bench.registry import WorldRegistration

boltzmann = WorldRegistration(
    world="mam_bench.models.examples.boltzmann:BoltzmannWorld",
    heuristic="mam_bench.models.examples.boltzmann:BoltzmannHeuristic",
)
voter = WorldRegistration(
    world="mam_bench.models.examples.voter:VoterWorld",
    heuristic="mam_bench.models.examples.voter:VoterHeuristic",
)
civil_violence = WorldRegistration(
    world="mam_bench.models.examples.civil_violence:CivilViolenceWorld",
    heuristic="mam_bench.models.examples.civil_violence:CivilViolenceHeuristic",
)
