"""The social-media world's parameters. Defaults are those of the echo-chamber model's authors'
published script (100 users, 400 follow links, a screen of 10 messages, tolerance 0.4, influence
0.5, repost 0.5, unfollow 0.5); see docs/results/social-media.md for which are ours."""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from mam_bench.params import WorldParams

#: the most users a run may ask for; whether that many fit is the memory estimate's to say
MAX_USERS = 200_000


class SocialMediaParams(WorldParams):
    n: int = Field(100, ge=3, le=MAX_USERS, description="users on the platform")
    k: int = Field(4, ge=1, le=100, description="accounts each user follows (the follow network's out-degree)")
    feed: int = Field(10, ge=1, le=100, description="screen length l: the newest followees' messages a user reads")
    eps: float = Field(0.4, gt=0.0, le=2.0, description="confidence bound: a message is concordant within it")
    mu: float = Field(0.5, ge=0.0, le=1.0, description="influence strength: share of the mean concordant gap taken")
    p_repost: float = Field(0.5, ge=0.0, le=1.0, description="chance a user reposts a concordant message")
    q_unfollow: float = Field(0.5, ge=0.0, le=1.0, description="chance a user unfollows a discordant poster")
    rounds: int = Field(
        60, ge=1, le=100_000, description="the horizon; a round lets every user act once, in a random order"
    )

    @field_validator("k")
    @classmethod
    def _someone_to_follow(cls, k: int, info: ValidationInfo) -> int:
        n = info.data.get("n")
        if n is not None and k > n - 2:
            raise ValueError(f"{k} followees leave nobody new to follow among n={n} users (k <= n-2)")
        return k

    def memory_needed(self) -> tuple[str, int]:
        """A pair with both baselines: the interpreter and its libraries, then per user a Mesa
        agent and its rows, per follow link a few words, with a margin."""
        from mam_bench.models.social_media.world import PER_LINK, PER_USER

        return "n", 400 * 2**20 + self.n * (PER_USER + PER_LINK * self.k)
