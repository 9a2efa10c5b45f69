"""The pilot page's own numbers come out of our world under `streams=pilot` (docs/worlds/schelling.md,
"Seeding and streams" and "Landscape"); the default isolated streams keep the page's initial board."""

from __future__ import annotations

import statistics

import pytest

from mam_bench.models.schelling.landscape import reference_outcome
from mam_bench.models.schelling.params import SchellingParams
from mam_bench.runner import PairSpec, run_pair


def test_seed_22_reference_matches_the_page(tmp_path):
    spec = PairSpec.build(world="schelling", seed=22, controller="rule", params={"streams": "pilot"})
    result = run_pair(spec, tmp_path)
    ref = result["reference"]
    assert ref["status"] == "equilibrium"
    assert ref["rounds"] == 14
    assert round(ref["initial"]["oeh"], 4) == 0.5169
    assert round(ref["initial"]["satisfaction"], 3) == 0.148
    assert round(ref["final"]["oeh"], 4) == 0.9894
    assert ref["final"]["satisfaction"] == 1.0
    assert result["lift"] == 0.0 and result["delta"] == 0.0
    assert result["influence_ids"] == [*range(8), *range(150, 158)]


@pytest.mark.parametrize(
    "threshold, mean, sd, statuses",
    [
        ("1/2", 1.0, 0.0, {"equilibrium": 20}),
        ("3/4", 0.717, 0.298, {"equilibrium": 10, "blocked": 10}),
        ("6/7", 0.0997, 0.0419, {"blocked": 20}),
    ],
)
def test_landscape_cells_match_the_page(threshold, mean, sd, statuses):
    params = SchellingParams(threshold=threshold, vacancy="0.25", streams="pilot")
    runs = [reference_outcome(params, seed) for seed in range(20)]
    sats = [r["final_satisfaction"] for r in runs]
    assert round(statistics.fmean(sats), 4) == pytest.approx(mean, abs=5e-5)
    assert round(statistics.stdev(sats), 4) == pytest.approx(sd, abs=5e-4)
    counts: dict[str, int] = {}
    for r in runs:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    assert counts == statuses


def test_isolated_default_keeps_the_pages_initial_board(tmp_path):
    result = run_pair(PairSpec.build(world="schelling", seed=22, controller="rule"), tmp_path)
    assert result["params"]["streams"] == "isolated"
    assert round(result["reference"]["initial"]["oeh"], 4) == 0.5169
    assert result["lift"] == 0.0 and result["delta"] == 0.0


@pytest.mark.parametrize("streams", ["pilot", "isolated"])
def test_landscape_kernel_equals_the_world(streams):
    """The bare kernel used by landscapes gives the world's own reference outcome."""
    for seed in (0, 3, 22):
        params = SchellingParams(threshold="3/4", streams=streams)
        spec = PairSpec.build(world="schelling", seed=seed, controller="rule", influence=0, params={"streams": streams})
        result = run_pair(spec)
        fast = reference_outcome(params, seed)
        assert fast["status"] == result["reference"]["status"]
        assert fast["rounds"] == result["reference"]["rounds"]
        assert fast["final_satisfaction"] == pytest.approx(result["reference"]["final"]["satisfaction_all"])
        assert fast["final_homophily"] == pytest.approx(result["reference"]["final"]["oeh_all"])


def test_placement_ignores_threshold_but_not_vacancy():
    from mam_bench.models.schelling.seeding import initial_board

    a = initial_board(SchellingParams(threshold="1/2"), 5)
    b = initial_board(SchellingParams(threshold="6/7"), 5)
    c = initial_board(SchellingParams(vacancy="0.3"), 5)
    assert (a == b).all()
    assert not (a == c).all()


def test_values_outside_the_pilot_lists_are_seeded_distinctly():
    from mam_bench.models.schelling.seeding import stream_words

    inside = stream_words(1, SchellingParams(threshold="3/4"), 0)
    outside = stream_words(1, SchellingParams(threshold="3/5"), 0)
    odd = stream_words(1, SchellingParams(threshold="2/9"), 0)
    assert inside != odd and outside != odd
    assert 0xFFFF in odd
