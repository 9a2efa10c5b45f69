"""The dashboard's step-wise pair must match the runner's records round for round."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import pytest

from mam_bench.dashboards.config import DashConfig, build_session, to_spec
from mam_bench.dashboards.replay import ReplaySession, held
from mam_bench.dashboards.session import PairSession
from mam_bench.errors import ConfigError
from mam_bench.records import read_rounds
from mam_bench.runner import PairSpec
from mam_bench.runner import run_pair as _run_pair


def run_pair(spec: PairSpec, out: Path) -> dict:
    """In a thread of its own: a browser test in the same session may hold this thread's loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(_run_pair, spec, out).result()


SMALL = {"size": "12", "max_rounds": "60"}


def test_rule_controller_steps_identically_in_both_panels() -> None:
    s = PairSession(PairSpec.build(world="schelling", seed=3, controller="rule", params=SMALL, influence=4, rounds=6))
    while s.step():
        pass
    assert s.state.round == 6
    for ref, tre in zip(s.state.reference, s.state.treatment):
        assert ref["positions"] == tre["positions"]
    assert s.state.lift()["lift"] == 0.0


def test_live_session_matches_recorded_run(tmp_path: Path) -> None:
    spec = PairSpec.build(world="schelling", seed=5, controller="random", params=SMALL, influence=4, rounds=5)
    run_pair(spec, tmp_path / "run")
    s = PairSession(spec)
    while s.step():
        pass
    recorded = read_rounds(tmp_path / "run", "treatment.jsonl")
    assert [r["positions"] for r in recorded] == [r["positions"] for r in s.state.treatment]
    ref = read_rounds(tmp_path / "run", "reference.jsonl")
    assert [r["positions"] for r in held(ref, 5)] == [r["positions"] for r in s.state.reference]


def test_reset_returns_to_round_zero_and_replay_reveals_rounds(tmp_path: Path) -> None:
    spec = PairSpec.build(world="schelling", seed=5, controller="random", params=SMALL, influence=4, rounds=4)
    run_pair(spec, tmp_path / "run")
    r = ReplaySession(tmp_path / "run")
    assert r.state.round == 0 and r.state.feed == []
    r.step()
    r.step()
    assert r.state.round == 2 and {e["round"] for e in r.state.feed} == {0, 1}
    r.reset()
    assert r.state.round == 0


def test_bad_influence_text_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="influence"):
        to_spec(DashConfig(influence="a,b"), "random")
    with pytest.raises(ConfigError, match="model"):
        build_session(DashConfig(controller="llm"))


def test_llm_controller_from_the_dashboard_reaches_a_loopback_server(monkeypatch):
    """The dashboard's llm choice (model string, base URL, key variable) drives real calls."""
    from mam_bench.dashboards.config import DashConfig, to_spec
    from mam_bench.dashboards.session import PairSession
    from tests.support.openai_server import OpenAIServer, schelling_reply

    monkeypatch.setenv("DASH_TEST_KEY", "sk-dashboard-test")
    monkeypatch.setenv("MAM_DASHBOARD_ALLOW_KEYS", "DASH_TEST_KEY")  # as `--allow-key-env DASH_TEST_KEY` sets it
    with OpenAIServer(reply=schelling_reply) as srv:
        cfg = DashConfig(
            world="schelling",
            seed=22,
            influence="2",
            controller="llm",
            model="openai:any",
            base_url=srv.base_url,
            api_key_env="DASH_TEST_KEY",
        )
        session = PairSession(to_spec(cfg, "llm"))
        assert session.step()
        assert len(srv.bodies) >= 4  # two posts and two decisions
        assert {e["actor_id"] for e in session.state.feed} == {0, 150}


@pytest.mark.parametrize("world", ["schelling", "foraging"])
def test_baseline_lifts_are_the_runners_stay_and_mimic_pairs(world: str, tmp_path: Path) -> None:
    """The lift card's stay and mimic lifts: at the end of the pair they equal the lifts that
    `run_pair` records for the same seed and settings under those policies."""
    params = SMALL if world == "schelling" else {}
    # each world's own horizon: the runner compares at the treatment's last round only then
    spec = PairSpec.build(world=world, seed=5, controller="heuristic", params=params)
    s = PairSession(spec)
    assert s.baseline_lifts()  # before any step: round 0, from the cached baseline rows
    while s.step():
        pass
    got = s.baseline_lifts()
    assert set(got) == {"stay", "mimic"}
    for policy, lifts in got.items():
        result = run_pair(spec.model_copy(update={"controller": policy}), tmp_path / policy)
        assert lifts["lift"] == pytest.approx(result["lift"], abs=1e-12), policy
    s.reset()  # same seed and settings: the baselines are kept, not played again
    assert s.baselines() is s.baselines()
    s.close()


def test_a_world_without_rule_action_shows_mimic_as_not_available() -> None:
    """A user's world may have no rule_action: the card shows stay, and mimic as n/a, no crash."""
    from mam_bench import registry
    from mam_bench.registry import WorldRegistration

    table = registry.registrations()
    table["test-no-rule-schelling"] = WorldRegistration(world="tests.experiment.mimic_world:NoRuleSchelling")
    try:
        s = PairSession(PairSpec.build(world="test-no-rule-schelling", seed=5, controller="random", params=SMALL))
        got = s.baseline_lifts()
        assert got["mimic"]["lift"] is None and isinstance(got["stay"]["lift"], float)
        s.close()
    finally:
        del table["test-no-rule-schelling"]
