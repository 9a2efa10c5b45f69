"""The isolation check shared by the per-world and the all-worlds tests.

Round 0 starts from the same state in reference and treatment, so every ordinary agent must draw
exactly the same numbers in both, whatever the influence agents do: its draws come from its own
addressed streams, not from a shared generator that a swapped agent would shift.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mam_bench.registry import make_controller
from mam_bench.runner import PairSpec, Treatment, prepare, round_row, step_reference
from mam_bench.streams import DrawLog, record_draws

#: controllers that never defer to the rule, so their agents leave the rule's path
NON_DEFERRING = ("random", "stay", "mimic")


def round0_draws(spec: PairSpec) -> tuple[DrawLog, DrawLog, tuple[int, ...], list[int]]:
    """(reference log, treatment log, influence ids, every actor id) for round 0 of a pair."""
    prep = prepare(spec)
    reference = prep.new_world(treatment=False)
    with record_draws() as ref_log:
        step_reference(reference)
    controller = make_controller(spec.controller, prep.world_cls, prep.objective, dict(spec.controller_options))
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
        assert ref == tre, f"ordinary agent {aid} drew differently in round 0 under {spec.controller}"
        drew += bool(ref)
    return drew


def influence_sample(data: Any, actors: list[int], max_n: int) -> tuple[int, ...]:
    """A hypothesis-drawn influence set: 1..max_n distinct actor ids."""
    from hypothesis import strategies as st

    n = data.draw(st.integers(1, min(max_n, len(actors) - 1)), label="n_influence")
    return tuple(
        sorted(data.draw(st.lists(st.sampled_from(actors), min_size=n, max_size=n, unique=True), label="influence_ids"))
    )


def whole_run(spec: PairSpec) -> tuple[DrawLog, DrawLog, list[dict[str, Any]], list[dict[str, Any]], Any]:
    """(reference log, treatment log, reference rows, treatment rows, prepared spec) over the
    treatment's horizon: both runs recorded round by round, world streams included."""
    prep = prepare(spec)
    reference = prep.new_world(treatment=False)
    ref_rows = [round_row(reference)]
    with record_draws() as ref_log:
        while len(ref_rows) <= prep.horizon and step_reference(reference):
            ref_rows.append(round_row(reference))
    controller = make_controller(spec.controller, prep.world_cls, prep.objective, dict(spec.controller_options))
    run = Treatment(prep, controller)
    with record_draws() as tre_log:
        while not run.finished:
            asyncio.run(run.step())
    return ref_log, tre_log, ref_rows, run.rows, prep


def agent_state(row: dict[str, Any], aid: int, n: int) -> tuple[Any, ...]:
    """One agent's own state in a record row: its entry of every per-agent list of the snapshot
    (positions, lights, health...) and its own record in an `agents` list."""
    out = []
    for key, value in sorted(row.items()):
        if key in ("round", "status", "metrics") or not isinstance(value, list):
            continue
        if value and all(isinstance(v, dict) and "id" in v for v in value):
            out.append((key, [v for v in value if v["id"] == aid]))
        elif len(value) == n and not any(isinstance(v, dict) for v in value):
            out.append((key, value[aid]))
    return tuple(out)


def agent_action(row: dict[str, Any], aid: int, n: int) -> Any:
    """The action an agent took in the round that ended at `row` (None when the world logs none)."""
    actions = row.get("actions")
    if not isinstance(actions, list):
        return None
    if actions and all(isinstance(e, dict) and "agent" in e for e in actions):
        return [(e["tool"], e["args"]) for e in actions if e["agent"] == aid]
    return actions[aid] if len(actions) == n else None


def _same_stream(ref: list[Any], tre: list[Any], ref_calls: list[Any], tre_calls: list[Any]) -> bool:
    """An addressed stream asked the same thing gives the same answer: walking both runs' calls
    together, every draw made with the same method and arguments returns the same value (a lazy
    rule may stop drawing, or ask for a different choice, once what it sees differs)."""
    for a, b, ca, cb in zip(ref, tre, ref_calls, tre_calls):
        if ca != cb:
            return True
        if a != b:
            return False
    return True


def assert_whole_run_isolated(spec: PairSpec) -> int:
    """Every ordinary agent's draws match over the whole run, round by round, as long as its own
    state is the same in both runs: the draws of its agent streams, and the world-stream draws
    its own actions consumed (yields, blows) wherever it took the same action. Returns the number
    of (agent, round) pairs compared in which the agent drew."""
    ref_log, tre_log, ref_rows, tre_rows, prep = whole_run(spec)
    actors = list(prep.new_world(treatment=False).actor_ids())
    n, steered = len(actors), set(prep.influence_ids)
    played = min(len(ref_rows), len(tre_rows)) - 1
    compared = 0
    for aid in actors:
        if aid in steered:
            continue
        for r in range(played):
            if agent_state(ref_rows[r], aid, n) != agent_state(tre_rows[r], aid, n):
                break  # its own state diverged: from here on it may draw differently
            ref, tre = ref_log.of(aid, r), tre_log.of(aid, r)
            for key in ref.keys() & tre.keys():
                calls = ref_log.calls[(key[0], r, aid)], tre_log.calls[(key[0], r, aid)]
                assert _same_stream(ref[key], tre[key], *calls), (
                    f"ordinary agent {aid} drew differently from stream {key} under {spec.controller}"
                )
            compared += bool(ref)
            if agent_action(ref_rows[r + 1], aid, n) == agent_action(tre_rows[r + 1], aid, n):
                mine = ref_log.consumed.get((r, aid), []), tre_log.consumed.get((r, aid), [])
                for a, b in zip(*mine):
                    assert a == b, (
                        f"ordinary agent {aid}'s action in round {r} drew {b}, not {a}, under {spec.controller}"
                    )
    return compared
