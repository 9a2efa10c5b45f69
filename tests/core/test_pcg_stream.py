"""The Python replay of an addressed stream gives numpy's draws, call for call."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mam_bench.adapter import MesaWorld
from mam_bench.models.voter.model import VoterWorld
from mam_bench.pcg_stream import PCGStream, entropy_words, pcg_seeds, pcg_seeds_of
from mam_bench.streams import MAGIC, RoundDraws, agent_draws, agent_stream, purpose_word, record_draws
from mam_bench.world import play_round

words = st.lists(st.integers(0, 2**70), min_size=0, max_size=12)
calls = st.lists(
    st.one_of(
        st.tuples(st.just("integers"), st.integers(1, 2**32 - 2)),
        st.tuples(st.just("integers"), st.sampled_from([1, 2, 3, 5, 7, 100, 2**31, 2**32 - 2, 3 * 2**30 + 1])),
        st.tuples(st.just("random"), st.none()),
    ),
    max_size=12,
)


def numpy_stream(values: list[int]) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(values)))


@settings(max_examples=300, deadline=None)
@given(values=words, plan=calls, tail=st.sampled_from(["permutation", "choice", "normal", "integers2", "none"]))
def test_replay_equals_numpy(values: list[int], plan: list[tuple[str, int | None]], tail: str) -> None:
    ours, theirs = PCGStream(entropy_words(values)), numpy_stream(values)
    for name, n in plan:
        if name == "integers":
            got, want = ours.integers(n), theirs.integers(n)
            assert type(got) is int and got == int(want)
        else:
            assert ours.random() == theirs.random()
    # any other call continues from the exact state (the buffered 32-bit half included)
    if tail == "permutation":
        assert ours.permutation(9).tolist() == theirs.permutation(9).tolist()
    elif tail == "choice":
        assert ours.choice(50, size=4, replace=False).tolist() == theirs.choice(50, size=4, replace=False).tolist()
    elif tail == "normal":
        assert ours.normal() == theirs.normal()
    elif tail == "integers2":
        assert ours.integers(3, 90, size=5).tolist() == theirs.integers(3, 90, size=5).tolist()
    assert ours.integers(1000) == theirs.integers(1000)
    assert ours.random() == theirs.random()


def test_long_word_lists_fall_back_to_numpy() -> None:
    values = list(range(40))
    ours, theirs = PCGStream(entropy_words(values)), numpy_stream(values)
    assert [ours.integers(7) for _ in range(20)] == theirs.integers(7, size=20).tolist()


def test_agent_draws_is_agent_stream() -> None:
    for seed, purpose, r, actor in [(0, "policy", 0, 0), (7, "policy", 31, 199), (2**40, "message", 3, 5)]:
        a, b = agent_draws(seed, purpose, r, actor), agent_stream(seed, purpose, r, actor)
        assert [a.integers(k) for k in (2, 3, 4, 5, 2**20)] == [int(b.integers(k)) for k in (2, 3, 4, 5, 2**20)]
        assert a.random() == b.random()
        assert entropy_words([*MAGIC, purpose_word(purpose), r, actor, seed])[:4] == [*MAGIC, purpose_word(purpose), r]


def test_agent_draws_are_recorded() -> None:
    with record_draws() as log:
        agent_draws(3, "policy", 2, 9).integers(4)
    assert log.of(9) == {("policy", 2): [("integers", int(agent_stream(3, "policy", 2, 9).integers(4)))]}


def test_bad_bounds_raise_as_numpy_does() -> None:
    with pytest.raises(ValueError):
        PCGStream([1, 2]).integers(0)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**32 - 1), st.integers(2**32, 2**40)),
    round_=st.integers(0, 10_000),
    actors=st.integers(1, 90),
    purpose=st.sampled_from(["policy", "order", "message"]),
)
def test_round_draws_are_each_actors_agent_stream(seed: int, round_: int, actors: int, purpose: str) -> None:
    """A crowd's streams, hashed together, are numpy's streams one by one (a few, or a big seed,
    take the one-by-one path: the same numbers either way)."""
    batch = RoundDraws(seed, purpose, round_, actors)
    for aid in range(actors):
        ours, theirs = batch.of(aid), agent_stream(seed, purpose, round_, aid)
        assert [ours.integers(k) for k in (2, 3, 7, 2**31 + 5)] == [
            int(theirs.integers(k)) for k in (2, 3, 7, 2**31 + 5)
        ]
        assert ours.random() == theirs.random()


def test_a_round_of_agent_words_hashed_together_is_numpys() -> None:
    """What a Mesa world's shuffle prefetches: each agent's three turn words, and PCG64 seeded
    from the third, equal numpy's stream and numpy's seeding (edge values of the seed too)."""
    values = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1, *np.random.default_rng(8).integers(2**63, size=50).tolist()]
    for v, (state, inc) in zip(values, pcg_seeds_of(values)):
        assert np.random.PCG64(v).state["state"] == {"state": state, "inc": inc}, v
    for seed, round_ in ((0, 0), (7, 3), (2**32 - 1, 99)):
        aids = [*range(40), 2**32 - 1]
        head = (*MAGIC, purpose_word("turn"), round_)
        got = [PCGStream.at(*s).below_2_63(3) for s in pcg_seeds(head, aids, [seed])]
        assert got == [agent_stream(seed, "turn", round_, a).integers(2**63, size=3).tolist() for a in aids]


def test_a_mesa_world_plays_the_same_with_its_words_prefetched_or_not(monkeypatch) -> None:
    def rows() -> list[str]:
        world = VoterWorld(VoterWorld.Params(n=300), seed=4, influence_ids=[0, 5], role="treatment")
        out = []
        for _ in range(4):
            audit = [entry.outcome for entry in play_round(world)]
            out.append(json.dumps([audit, world.snapshot(), world.metrics()]))
        return out

    prefetched = rows()
    monkeypatch.setattr(MesaWorld, "prefetch_words", lambda self, aids: None)
    assert rows() == prefetched
