"""The social-media model's rule, piece by piece: the follow table, the screen, the opinion update,
unfollowing, and the measures."""

from __future__ import annotations

import numpy as np
import pytest

from mam_bench.models.social_media import metrics
from mam_bench.models.social_media.model import SocialMediaModel, random_follows


def test_each_user_follows_k_distinct_others():
    follows = random_follows(np.random.default_rng(3), 50, 7)
    assert follows.shape == (50, 7)
    assert all(len(set(row)) == 7 for row in follows.tolist())
    assert not (follows == np.arange(50)[:, None]).any()


def test_the_screen_holds_the_newest_followee_messages_but_not_ones_own():
    m = SocialMediaModel(n=20, k=3, feed=4, seed=1)
    me, (a, b, c) = 0, m.follows[0]
    stranger = next(i for i in range(20) if i not in (me, a, b, c))
    m.post(a, 0.1, a)
    m.post(stranger, 0.9, stranger)  # not followed: never on my screen
    m.post(b, 0.2, b)
    m.post(c, -0.5, me)  # c reposts my own message: left out
    m.post(a, 0.3, a)
    m.post(c, 0.4, c)
    m.post(b, 0.5, b)
    screen = m.screen(me)
    assert [msg.content for msg in screen] == [0.2, 0.3, 0.4, 0.5]  # the newest 4, oldest first
    assert [msg.poster for msg in screen] == [b, a, c, b]
    assert me not in [msg.origin for msg in screen]


def test_messages_older_than_the_platforms_last_n_leave_the_screen():
    m = SocialMediaModel(n=5, k=1, feed=3, seed=0)
    followee = int(m.follows[0][0])
    m.post(followee, 0.7, followee)
    others = [i for i in range(5) if i not in (0, followee)]
    for t in range(4):
        m.post(others[t % len(others)], 0.0, others[t % len(others)])
    assert [msg.content for msg in m.screen(0)] == [0.7]  # 4 newer messages: still among the last 5
    m.post(others[0], 0.0, others[0])
    assert m.screen(0) == []


def test_a_turn_moves_the_opinion_by_mu_times_the_mean_concordant_gap():
    m = SocialMediaModel(n=10, k=2, feed=5, eps=0.3, mu=0.5, q_unfollow=0.0, seed=2)
    a, b = m.follows[0]
    m.opinion[0] = 0.0
    m.post(a, 0.2, a)
    m.post(b, -0.1, b)
    m.post(a, 0.9, a)  # discordant: ignored
    m.users[0].step()
    assert m.opinion[0] == pytest.approx(0.5 * (0.2 - 0.1) / 2)


def test_unfollowing_replaces_a_discordant_followee_and_keeps_the_out_degree():
    m = SocialMediaModel(n=30, k=4, feed=5, eps=0.1, q_unfollow=1.0, p_repost=0.0, seed=4)
    before = m.follows[0].copy()
    far = int(before[0])
    m.opinion[0] = -1.0
    m.post(far, 1.0, far)
    m.users[0].step()
    after = m.follows[0]
    assert far not in after and len(set(after.tolist())) == 4 and 0 not in after
    assert len(set(before.tolist()) & set(after.tolist())) == 3


def test_a_user_keeps_its_last_feed_messages():
    m = SocialMediaModel(n=10, k=2, feed=3, seed=5)
    for t in range(5):
        m.post(4, t / 10, 4)
    assert [content for _, content, _ in m.sent[4]] == [0.2, 0.3, 0.4]


def test_a_turn_posts_one_message():
    m = SocialMediaModel(n=10, k=2, seed=5)
    m.users[3].step()
    assert m.clock == 1 and m.sent[3] == [(0, float(m.opinion[3]), 3)]


def test_measures_on_known_distributions():
    camps = np.array([-1.0] * 50 + [1.0] * 50)
    assert metrics.variance(camps) == 1.0
    assert metrics.bimodality(camps) == pytest.approx(1.0)  # two point masses: the maximum
    assert metrics.bimodality(np.zeros(10)) == 0.0
    assert metrics.clusters(camps, 0.5) == 2 and metrics.clusters(np.linspace(0, 1, 11), 0.2) == 1
    # two camps following only their own side: assortativity 1; following across: -1
    follows = np.array([[1], [0], [3], [2]])
    assert metrics.assortativity(np.array([-1.0, -1.0, 1.0, 1.0]), follows, np.ones(4, bool)) == pytest.approx(1.0)
    assert metrics.assortativity(np.array([-1.0, 1.0, -1.0, 1.0]), follows, np.ones(4, bool)) == pytest.approx(-1.0)


def settle(eps: float, q: float, seed: int, rounds: int = 80) -> SocialMediaModel:
    m = SocialMediaModel(eps=eps, q_unfollow=q, seed=seed)
    for _ in range(rounds):
        m.step()
    return m


@pytest.mark.parametrize("seed", [0, 1])
def test_narrow_bounds_with_unfollowing_make_echo_chambers_and_wide_ones_consensus(seed):
    """The paper's two regimes on its own platform (100 users, 400 links, screen 10, mu and p 0.5)."""
    everyone = np.ones(100, dtype=bool)
    narrow = settle(0.2, 0.5, seed)
    assert metrics.clusters(narrow.opinion, 0.2) >= 3
    assert metrics.assortativity(narrow.opinion, narrow.follows, everyone) > 0.8
    mixed = settle(0.2, 0.0, seed)  # the same bound without unfollowing: no segregated network
    assert abs(metrics.assortativity(mixed.opinion, mixed.follows, everyone)) < 0.3
    wide = settle(0.9, 0.5, seed)
    assert metrics.clusters(wide.opinion, 0.9) == 1 and metrics.variance(wide.opinion) < 0.01
