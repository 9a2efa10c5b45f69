"""The social-media world's one registration (entry point `mam_bench.worlds`: social_media), apart
from its model, so that listing worlds does not import Mesa for it."""

from mam_bench.registry import WorldRegistration

registration = WorldRegistration(
    world="mam_bench.models.social_media.world:SocialMediaWorld",
    heuristic="mam_bench.models.social_media.heuristic:SocialMediaHeuristic",
    prompts="mam_bench.models.social_media.prompts:SocialMediaPrompts",
)
