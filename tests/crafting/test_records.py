"""Crafting records name the task and hold what redraws the final picture."""

from mam_bench.models.crafting.catalog import catalog
from mam_bench.records import read_rounds
from mam_bench.runner import PairSpec, prepare, run_pair
from mam_bench.world import play_round


def test_last_treatment_row_redraws_the_world(tmp_path):
    spec = PairSpec.build(world="crafting", seed=2, params={"task": "muster"}, controller="stay", influence_ids=(4,))
    run_pair(spec, out=tmp_path)
    rows = read_rounds(tmp_path, "treatment.jsonl")
    last = rows[-1]
    assert all(r["task"] == "muster" for r in rows)
    world = prepare(spec).new_world(treatment=True)  # a fresh world replays the recorded actions
    from mam_bench.protocol import Decision

    for r in rows[1:]:
        play_round(world, {4: Decision(action={"tool": "sleep"})})
    cat = catalog()
    for a, b in zip(last["agents"], world.actors):
        assert (a["site"], tuple(a["xy"]), a["inv"]) == (b.site, b.xy, b.inventory())
        if a["site"]:
            assert tuple(a["xy"]) == cat.sites[a["site"]]  # an agent at a site stands on it
    assert last["stock"] == world.stock and last["prices"] == {i: round(p, 4) for i, p in world.prices.items()}
