"""The voter world's one registration (entry point `mam_bench.worlds`: voter), apart from its model,
so that listing worlds or running a landscape does not import Mesa for it."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.voter.model:VoterWorld",
    heuristic="mam_bench.models.voter.model:VoterHeuristic",
)
