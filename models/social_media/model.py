"""An ordinary Mesa model of a social-media platform, after the echo-chamber model of Sasahara et al.
(2021, "Social influence and unfollowing accelerate the emergence of echo chambers").

Each user holds an opinion in [-1, 1] and follows `k` accounts. At its turn a user reads its screen
(the newest `feed` messages its followees posted, never its own messages reposted back), moves its
opinion by `mu` times the mean gap to the concordant ones (within `eps`), with chance `q_unfollow`
unfollows the poster of a random discordant message and follows a random account it does not follow
yet, then reposts a random concordant message (chance `p_repost`) or posts its own opinion.

Opinions and the follow table are numpy arrays on the model (the metrics read them whole); each
user's last `feed` messages are a short list, which a turn reads faster than numpy would. The rule
lives on the `User` agent.
"""

from __future__ import annotations

from random import Random
from typing import NamedTuple

import mesa
import numpy as np


class User(mesa.Agent):
    """One account; `index` addresses its row in the model's arrays."""

    def __init__(self, model: SocialMediaModel, index: int):
        super().__init__(model)
        self.index = index

    @property
    def opinion(self) -> float:
        return float(self.model.opinion[self.index])

    def plan(self) -> Turn:
        """What this user's turn does, drawn from its own stream and changing nothing yet."""
        m, i = self.model, self.index
        mine = float(m.opinion[i])
        screen = m.screen(i)
        concordant = [msg for msg in screen if abs(msg.content - mine) < m.eps]
        opinion = mine
        if concordant:
            opinion = mine + m.mu * sum(msg.content - mine for msg in concordant) / len(concordant)
        unfollow = follow = None
        if self.random.random() < m.q_unfollow and len(concordant) < len(screen):
            discordant = [msg for msg in screen if abs(msg.content - mine) >= m.eps]
            unfollow = discordant[self.random.randrange(len(discordant))].poster
            follow = m.new_followee(i, self.random)
        if concordant and self.random.random() < m.p_repost:
            pick = concordant[self.random.randrange(len(concordant))]
            return Turn(opinion, unfollow, follow, pick.content, pick.origin)
        return Turn(opinion, unfollow, follow, opinion, i)

    def step(self) -> None:
        turn = self.plan()
        m, i = self.model, self.index
        m.opinion[i] = turn.opinion
        if turn.unfollow is not None:
            m.replace_followee(i, turn.unfollow, turn.follow)
        m.post(i, turn.content, turn.origin)


class Message(NamedTuple):
    """A message on a screen: when it was sent (the platform's message count), what it says, who
    sent it (a repost's sender is the reposter) and who first posted it."""

    sent: int
    content: float
    poster: int
    origin: int


class Turn(NamedTuple):
    """One user's turn: its new opinion, whom it unfollows and follows (or None), the message it sends."""

    opinion: float
    unfollow: int | None
    follow: int | None
    content: float
    origin: int


class SocialMediaModel(mesa.Model):
    """Users act once per step in a random order (one step is a sweep of `n` of the paper's steps)."""

    def __init__(
        self,
        n: int = 100,
        k: int = 4,
        feed: int = 10,
        eps: float = 0.4,
        mu: float = 0.5,
        p_repost: float = 0.5,
        q_unfollow: float = 0.5,
        seed: int | None = None,
    ):
        super().__init__(seed=seed)
        self.n, self.k, self.feed = n, k, feed
        self.eps, self.mu, self.p_repost, self.q_unfollow = eps, mu, p_repost, q_unfollow
        self.opinion = self.rng.uniform(-1.0, 1.0, size=n)
        self.follows = random_follows(self.rng, n, k)
        # each user's last `feed` messages, oldest first: (sent, content, origin)
        self.sent: list[list[tuple[int, float, int]]] = [[] for _ in range(n)]
        self.clock = 0  # messages posted so far
        self.users = [User(self, i) for i in range(n)]
        self.datacollector = mesa.DataCollector(model_reporters={"variance": lambda m: float(np.var(m.opinion))})
        self.datacollector.collect(self)

    def screen(self, i: int) -> list[Message]:
        """User i's screen, oldest first: the newest `feed` messages its followees sent among the
        platform's last `n` messages, leaving out messages that i itself first posted. (Each
        followee's last `feed` messages are kept, enough for a screen of `feed`.)"""
        oldest = self.clock - self.n
        found = [
            Message(sent, content, j, origin)
            for j in self.follows[i].tolist()
            for sent, content, origin in self.sent[j]
            if sent >= oldest and origin != i
        ]
        found.sort()
        return found[-self.feed :]

    def post(self, i: int, content: float, origin: int) -> None:
        box = self.sent[i]
        box.append((self.clock, float(content), int(origin)))
        if len(box) > self.feed:
            del box[0]
        self.clock += 1

    def new_followee(self, i: int, random: Random) -> int:
        """A uniformly random account that i neither is nor follows."""
        row = self.follows[i].tolist()
        while True:
            new = random.randrange(self.n)
            if new != i and new not in row:
                return new

    def replace_followee(self, i: int, unfollow: int, follow: int) -> None:
        row = self.follows[i]
        row[np.flatnonzero(row == unfollow)[0]] = follow

    def step(self) -> None:
        self.agents.shuffle_do("step")
        self.datacollector.collect(self)


def random_follows(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """An (n, k) table: each user follows k distinct others, uniformly (a random k-out digraph)."""
    follows = rng.integers(0, n - 1, size=(n, k))
    follows += follows >= np.arange(n)[:, None]  # skip oneself
    while True:
        ordered = np.sort(follows, axis=1)
        bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if len(bad) == 0:
            return follows
        redraw = rng.integers(0, n - 1, size=(len(bad), k))
        follows[bad] = redraw + (redraw >= bad[:, None])
