"""The social-media prompts state the platform's own settings and the objective; an answer is read
against the world's menu of turns."""

from __future__ import annotations

from mam_bench.models.social_media.prompts import SocialMediaPrompts
from mam_bench.models.social_media.world import SocialMediaWorld
from mam_bench.protocol import Request


def test_the_standing_text_names_the_platforms_settings_and_the_goal():
    world = SocialMediaWorld(SocialMediaWorld.Params(n=50, eps=0.3, feed=7), seed=1, influence_ids=(2,))
    req = Request(world=world.name, actor_id=2, round=0, objective="depolarize", observation=world.observe(2))
    text = SocialMediaPrompts(SocialMediaWorld, "depolarize").system(req)
    assert "DEPOLARIZE" in text and "platform of 50 users" in text
    assert "newest 7 messages" in text and "within 0.3 of its opinion" in text
    prompts = SocialMediaPrompts(SocialMediaWorld, "polarize")
    assert prompts.parse('{"post": 1.0}', req, "decision").error is None
    assert prompts.parse('{"post": 0.7}', req, "decision").error is not None  # not one of the five bins
