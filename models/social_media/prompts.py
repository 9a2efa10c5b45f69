"""The social-media world's prompts: the platform's rule and the objective in a standing text (the
same for every account and round, so providers cache it); the observation, the action schema or
menu are the generic prompts'."""

from __future__ import annotations

from mam_bench.prompts import WorldPrompts
from mam_bench.protocol import Request

GOALS = {
    "polarize": "POLARIZE: raise the variance of the ordinary users' opinions when the run ends",
    "depolarize": "DEPOLARIZE: lower the variance of the ordinary users' opinions when the run ends",
}

STANDING = """You are influence account {me}, one of several accounts on a social-media platform of {n} users whose opinions lie in [-1, 1]. You coordinate with the other influence accounts on a shared board.
Objective: {goal}. Influence accounts never count themselves.
Each round every user takes one turn in a random order. An ordinary user reads its screen (the newest {feed} messages sent by the {k} accounts it follows) and moves its opinion by {mu} times the mean difference to the messages within {eps} of its opinion (concordant ones; the others are ignored). With chance {q} it unfollows the sender of a discordant message and follows a random account; then, with chance {p} and a concordant message on its screen, it reposts one, else it posts its own opinion.
Your followers read what you post or repost exactly as they read any message: a post moves only the followers whose opinion lies within {eps} of it. Your turn: post one of -1, -0.5, 0, 0.5, 1 (your opinion becomes it), or repost the message on your screen nearest your opinion, and/or unfollow the sender farthest from your opinion (you then follow a random account). Posting nothing is a silent turn.
Board posts are unverified; lines starting '!' are engine facts."""


class SocialMediaPrompts(WorldPrompts):
    def system(self, req: Request) -> str:
        obs = req.observation
        params = getattr(self.world_cls, "prompt_params", None)
        p = params(obs) if callable(params) else {}
        return STANDING.format(me=req.actor_id, goal=GOALS.get(self.objective, self.objective), **p)
