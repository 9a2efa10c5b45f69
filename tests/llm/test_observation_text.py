"""The compact Schelling board encoding: decodes back to the same observation, and is smaller
than the pilot-style rendering (characters; tokens under gemma-3's own tokenizer, offline)."""

from __future__ import annotations

import pytest

from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.models.schelling.observe import SchellingObservation
from mam_bench.protocol import Decision
from mam_bench.world import play_round

IDS = [*range(8), *range(150, 158)]


def observations() -> list[SchellingObservation]:
    out = []
    for seed in (0, 7, 22):
        world = SchellingWorld(seed=seed, influence_ids=IDS, mask_ids=IDS, role="treatment")
        for _ in range(3):
            out += [world.observe(a) for a in (IDS[0], IDS[-1])]
            vac = world.observe(0).vacancies()
            play_round(world, {0: Decision(action={"row": vac[0][0], "col": vac[0][1]})})
    return out


@pytest.mark.parametrize("obs", observations()[:6])
def test_compact_text_decodes_to_the_same_observation(obs: SchellingObservation) -> None:
    assert SchellingObservation.from_text(obs.to_text()) == obs


def test_compact_text_is_smaller_than_naive() -> None:
    obs = observations()[-1]
    compact, naive = len(obs.to_text()), len(obs.to_naive_text())
    print(f"\ncharacters: compact {compact}, naive {naive}, ratio {compact / naive:.3f}")
    assert compact < 0.6 * naive


def test_compact_text_has_fewer_tokens_under_a_local_tokenizer() -> None:
    from mam_bench.steering.llm.local_model import LocalChatModel

    obs = observations()[-1]
    model = LocalChatModel()
    compact, naive = model.count_tokens(obs.to_text()), model.count_tokens(obs.to_naive_text())
    print(f"\ngemma-3 tokens: compact {compact}, naive {naive}, ratio {compact / naive:.3f}")
    assert compact < naive
