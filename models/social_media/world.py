"""The social-media world made steerable: a few accounts post, repost and unfollow as they choose.

Influence accounts are users like any other (they keep their followers), so what they post reaches
their followers' screens exactly as an ordinary post would. The outcome is read on ordinary users
only: the influence accounts are masked in both runs.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, model_validator

from mam_bench.adapter import MenuDraws, MesaWorld
from mam_bench.models.social_media import metrics
from mam_bench.models.social_media.model import SocialMediaModel, User
from mam_bench.models.social_media.params import SocialMediaParams
from mam_bench.scoring import Scoring

#: the opinions an influence account may post (five bins over [-1, 1])
BINS = (-1.0, -0.5, 0.0, 0.5, 1.0)
#: the most users whose follow links a snapshot draws (beyond it the board shows the users alone)
EDGE_LIMIT = 300
#: bytes per user (arrays, a Mesa agent, its per-turn words) and per follow link, with a margin
PER_USER = 8 * 2**10
PER_LINK = 64


class Post(MenuDraws, BaseModel):
    """An influence account's turn: post an opinion, or repost from its screen, and/or unfollow."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    post: Literal[-1.0, -0.5, 0.0, 0.5, 1.0] | None = None  # None: no new post
    repost: bool = False  # repost the screen's message nearest the account's opinion
    unfollow: bool = False  # unfollow the poster farthest from its opinion, follow a random account

    @model_validator(mode="after")
    def _one_message(self) -> Post:
        if self.post is not None and self.repost:
            raise ValueError("post and repost: one message a turn")
        return self

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def legal_actions(cls, observation: Any) -> list[dict[str, Any]]:
        """Every legal turn, the null action (stay silent) first."""
        out = []
        for unfollow in (False, True):
            for post in (None, *BINS):
                out.append({"post": post, "repost": False, "unfollow": unfollow})
            out.append({"post": None, "repost": True, "unfollow": unfollow})
        return out


class SocialMediaWorld(MesaWorld):
    name = "social_media"
    rule_answer_kept = False  # its rule answers from the state alone; check_world holds it to that
    model_class = SocialMediaModel
    Params = SocialMediaParams
    Action = Post
    scoring = Scoring(
        summary="echo chambers on a follower network (Sasahara et al. 2021); "
        "influence accounts post (opinion variance)",
        metric="variance",
        objectives={"polarize": +1, "depolarize": -1},
        secondary="assortativity",
        reported=("bimodality", "clusters", "mean_opinion"),
        masks_influence=True,
    )
    state_attribute = "opinion"
    state_bins = (-0.6, -0.2, 0.2, 0.6, 1.0)

    def build_model(self) -> SocialMediaModel:
        return SocialMediaModel(**self.params.model_dump(exclude={"rounds"}), seed=self.seed)

    def is_actor(self, agent: Any) -> bool:
        return isinstance(agent, User)

    def scored(self) -> np.ndarray:
        """Which users count: everyone but the masked accounts (fixed once read)."""
        if getattr(self, "_scored", None) is None:
            actors = self.actors()
            keep = np.ones(self.model.n, dtype=bool)
            keep[[actors[aid].index for aid in self.run.mask_ids if aid in actors]] = False
            self._scored = keep
        return self._scored

    def apply(self, agent: User, action: Post) -> str | None:
        m, i = self.model, agent.index
        stance = float(m.opinion[i]) if action.post is None else float(action.post)
        screen = m.screen(i)
        if action.unfollow and screen:
            far = max(screen, key=lambda msg: abs(msg.content - stance))
            m.replace_followee(i, far.poster, m.new_followee(i, agent.random))
        if action.post is not None:
            m.opinion[i] = stance
            m.post(i, stance, i)
        elif action.repost:
            if not screen:
                return "blocked"
            near = min(screen, key=lambda msg: abs(msg.content - stance))
            m.post(i, near.content, near.origin)
        return None

    def outcome(self) -> dict[str, float]:
        keep = self.scored()
        ops = self.model.opinion[keep]
        return {
            "variance": metrics.variance(ops),
            "assortativity": metrics.assortativity(self.model.opinion, self.model.follows, keep),
            "bimodality": metrics.bimodality(ops),
            "clusters": float(metrics.clusters(ops, self.model.eps)),
            "mean_opinion": float(ops.mean()) if len(ops) else 0.0,
        }

    def observation(self, agent: User) -> dict[str, Any]:
        """Its screen as the rule would read it, and whom it reaches."""
        m, i = self.model, agent.index
        return {
            "opinion": round(float(m.opinion[i]), 4),
            "screen": [round(msg.content, 4) for msg in m.screen(i)],
            "followers": int(np.count_nonzero(m.follows == i)),
            "platform": {
                "n": m.n,
                "k": m.k,
                "feed": m.feed,
                "eps": m.eps,
                "mu": m.mu,
                "p": m.p_repost,
                "q": m.q_unfollow,
            },
        }

    @classmethod
    def prompt_params(cls, observation: Any) -> dict[str, Any]:
        """The platform's settings the prompts' standing text names, from an observation."""
        return dict(observation.extra["platform"])

    def rule_action(self, actor_id: int) -> dict[str, Any]:
        """The rule's turn in the action's terms (what `mimic` plays): its own post as the nearest
        bin, or a repost (of the screen's message nearest its opinion, not the rule's random pick),
        and whether it unfollows (the farthest poster, not the rule's random discordant one)."""
        agent = self.actors()[actor_id]
        with self.agent_streams(actor_id):
            turn = agent.plan()
        reposts = turn.origin != agent.index
        post = None if reposts else min(BINS, key=lambda b: abs(b - turn.content))
        return {"post": post, "repost": reposts, "unfollow": turn.unfollow is not None}

    def agent_state(self, agent: Any) -> float:
        """The opinion to one decimal: the board's bins read it, and its values stay few at any scale."""
        return round(float(self.model.opinion[agent.index]), 1) + 0.0  # never -0.0

    # --- the board: a user at (its opinion, a fixed height), its follow links drawn -------------
    def _xy(self, agent: Any) -> list[float] | None:
        """x is the user's opinion, y a fixed height by index: like-minded users sit side by side,
        so an echo chamber is a column whose links stay inside it."""
        i = agent.index
        return [round(float(self.model.opinion[i]), 4), round((i * 0.6180339887) % 1.0, 4)]

    def _edges(self) -> list[list[float]]:
        m = self.model
        if m.n > EDGE_LIMIT:
            return []
        xy = [self._xy(u) for u in m.users]
        return [[*xy[i], *xy[j]] for i in range(m.n) for j in m.follows[i].tolist()]
