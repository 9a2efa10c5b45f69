"""The isolation check shared by the per-world and the all-worlds tests.

Round 0 starts from the same state in reference and treatment, so every ordinary agent must draw
exactly the same numbers in both, whatever the influence agents do: its draws come from its own
addressed streams, not from a shared generator that a swapped agent would shift.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mam_bench.registry import make_controller
from mam_bench.runner import PairSpec, Treatment, prepare, step_reference
from mam_bench.streams import DrawLog, record_draws

#: controllers that never defer to the rule, so their agents leave the rule's path
NON_DEFERRING = ("random", "stay", "mimic")


def round0_draws(spec: PairSpec) -> tuple[DrawLog, DrawLog, tuple[int, ...], list[int]]:
    """(reference log, treatment log, influence ids, every actor id) for round 0 of a pair."""
    prep = prepare(spec)
    reference = prep.new_world(treatment=False)
    with record_draws() as ref_log:
        step_reference(reference)
    controller = make_controller(spec.policy, prep.world_cls, prep.objective, dict(spec.controller_options))
    run = Treatment(prep, controller)
    with record_draws() as tre_log:
        asyncio.run(run.step())
    return ref_log, tre_log, prep.influence_ids, list(reference.actor_ids())


def assert_round0_isolated(spec: PairSpec) -> int:
    """Assert every ordinary agent's round-0 draws match; returns how many ordinary agents drew."""
    ref_log, tre_log, influence, actors = round0_draws(spec)
    steered = set(influence)
    drew = 0
    for aid in actors:
        if aid in steered:
            continue
        ref, tre = ref_log.of(aid, 0), tre_log.of(aid, 0)
        assert ref == tre, f"ordinary agent {aid} drew differently in round 0 under {spec.policy}"
        drew += bool(ref)
    return drew


def influence_sample(data: Any, actors: list[int], max_n: int) -> tuple[int, ...]:
    """A hypothesis-drawn influence set: 1..max_n distinct actor ids."""
    from hypothesis import strategies as st

    n = data.draw(st.integers(1, min(max_n, len(actors) - 1)), label="n_influence")
    return tuple(
        sorted(data.draw(st.lists(st.sampled_from(actors), min_size=n, max_size=n, unique=True), label="influence_ids"))
    )
