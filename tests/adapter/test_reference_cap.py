"""An adapter world's reference cap apart from its horizon: the reference plays on past the
treatment horizon until the process rests, so a settled lift can show what persists."""

from mam_bench.models.voter.model import VoterWorld
from mam_bench.runner import PairSpec, prepare, run_pair


class ShortVoter(VoterWorld):
    """Ten treatment rounds; seed 4's voters reach consensus only at round 32."""

    rounds = 10


class CappedVoter(ShortVoter):
    max_rounds = 200


def _pair(world_cls):
    spec = PairSpec.build(world="voter", seed=4, controller="stay", influence=3, settle=True)
    return run_pair(spec, None, prep=prepare(spec, world_cls))


def test_without_a_cap_the_reference_stops_at_the_horizon() -> None:
    result = _pair(ShortVoter)
    assert result["reference"]["rounds"] == 10
    assert result["reference"]["status"] == "horizon_exhausted"
    assert result["settled"]["rounds"] == 10  # nothing to settle into


def test_the_cap_lets_reference_and_settling_run_past_the_horizon() -> None:
    result = _pair(CappedVoter)
    ref = result["reference"]
    assert ref["status"] == "consensus" and 10 < ref["rounds"] < 200
    assert result["treatment"]["rounds"] == 10  # the horizon is still the treatment's
    assert ref["compared_round"] == 10  # the lift compares at the horizon
    settled = result["settled"]
    assert settled["rounds"] > 10 and settled["status"] != "horizon_exhausted"
    # the persisting lift compares with the reference at the settled round (its rest held)
    assert settled["compared_round"] == min(settled["rounds"], ref["rounds"])
