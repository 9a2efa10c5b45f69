"""The oracle: a named upper bound that plans on forks and acts only through the influence path."""

from __future__ import annotations

import asyncio

import pytest

from mam_bench.errors import ConfigError
from mam_bench.protocol import Request
from mam_bench.registry import get_world, make_controller
from mam_bench.runner import PairSpec, run_pair

SMALL = {"candidates": 1, "sweeps": 1}
CASES = [
    ("voter", "spread", {}, 6),
    ("pursuit", "hinder", {"size": 10, "agents": 6}, 8),
    ("schelling", "integrate", {"size": 8}, 4),
    ("crafting", "accelerate", {}, 3),
]


def pair(world: str, objective: str, params: dict, rounds: int, policy: str, out=None, **kw) -> dict:
    spec = PairSpec.build(
        world=world, seed=1, params=params, objective=objective, controller=policy, influence=2, rounds=rounds, **kw
    )
    return run_pair(spec, out, baselines=("stay", "mimic") if policy == "oracle" else ())


@pytest.mark.parametrize(("world", "objective", "params", "rounds"), CASES, ids=[c[0] for c in CASES])
def test_the_oracle_never_ends_below_the_tails_it_scored(world, objective, params, rounds) -> None:
    result = pair(world, objective, params, rounds, "oracle", controller_options=SMALL)
    assert result["treatment"]["audit"]["identity_holds"]
    lifts = {name: b["lift"] for name, b in result["baselines"].items()}
    lifts["rule"] = 0.0
    for name, lift in lifts.items():
        assert result["lift"] >= lift, (name, lift, result["lift"])


def test_the_oracle_acts_only_through_its_decisions(tmp_path) -> None:
    """Its recorded decisions, replayed without any planning, give the very same treatment."""
    spec = dict(world="voter", seed=2, objective="suppress", influence=2, rounds=5)
    played = run_pair(PairSpec.build(**spec, controller="oracle", controller_options=SMALL), tmp_path / "oracle")
    replayed = run_pair(
        PairSpec.build(**spec, controller="replay", controller_options={"replay": str(tmp_path / "oracle")}),
        tmp_path / "replay",
    )
    assert replayed["treatment"]["final"] == played["treatment"]["final"]
    assert replayed["lift"] == played["lift"]
    assert replayed["treatment"]["audit"] == played["treatment"]["audit"]


def test_the_plan_seed_is_the_oracles_own() -> None:
    """The plan seed is recorded with the controller and moves nothing of the world's (the
    reference is the same)."""
    a = pair("voter", "spread", {}, 3, "oracle", controller_options={**SMALL, "plan_seed": 0})
    b = pair("voter", "spread", {}, 3, "oracle", controller_options={**SMALL, "plan_seed": 5})
    assert a["reference"]["compared"] == b["reference"]["compared"]
    assert a["controller"]["plan_seed"] == 0 and b["controller"]["plan_seed"] == 5


def test_options_are_checked() -> None:
    world = get_world("voter")
    with pytest.raises(ConfigError) as bad:
        make_controller("oracle", world, "spread", {"candidate": 2})
    assert bad.value.field == "candidate"
    with pytest.raises(ConfigError):
        make_controller("oracle", world, "spread", {"lookahead": 0})
    line = make_controller("oracle", world, "spread", {"candidates": 4, "budget": 1.5}).options_line()
    assert "4 random candidates" in line and "budget 1.5s" in line


def test_a_mimic_tail_played_live_is_mimic() -> None:
    """Where the plan kept is the `mimic` tail, the live agents get the rule's action as the
    rollouts did. Without it they played an empty action (a stay) and this v2 quick cell ended at
    lift 0, below `stay` and `mimic` (both +1)."""
    spec = PairSpec.build(
        world="civil_violence", seed=1004, objective="incite", controller="oracle", influence=2, rounds=5
    )
    result = run_pair(spec, baselines=("stay", "mimic"))
    for name, b in result["baselines"].items():
        assert result["lift"] >= b["lift"], (name, b["lift"], result["lift"])
    assert make_controller("oracle", get_world("civil_violence"), "incite", {}).wants_rule_action


def test_mimic_refuses_a_request_without_the_rules_action() -> None:
    """The shared guard behind the fix above: an empty action would be played as a stay, unseen."""
    mimic = make_controller("mimic", get_world("voter"), "spread", {})
    request = Request(world="voter", actor_id=0, round=0, objective="spread", observation=None)
    with pytest.raises(ValueError, match="rule's action"):
        asyncio.run(mimic.decide([request]))


def test_the_oracle_ends_at_or_above_rule_in_crafting_forge() -> None:
    """The cell where crafting's `rule_action` moved the market rule's goal when only asked: the
    oracle's live play (asking, for its `mimic` tail) left the plan its rollouts scored and ended
    at -0.163, below the `rule` tail's 0, which it had scored at round 0."""
    spec = PairSpec.build(
        world="crafting",
        seed=518,
        params={"task": "forge_vanguard"},
        objective="accelerate",
        controller="oracle",
        influence=2,
        rounds=15,
    )
    result = run_pair(spec, baselines=("stay", "mimic"))
    assert result["lift"] >= 0, result["lift"]
    for name, b in result["baselines"].items():
        assert result["lift"] >= b["lift"], (name, b["lift"], result["lift"])


@pytest.mark.parametrize(("world", "objective", "params", "rounds"), CASES[1:3], ids=[c[0] for c in CASES[1:3]])
def test_rollouts_ask_the_rule_only_where_its_answer_may_be_kept(
    world, objective, params, rounds, monkeypatch, tmp_path
) -> None:
    """In a world whose agents never keep the rule's answer, the oracle's rollouts skip asking it
    (fewer calls) and plan the very same decisions as rollouts that ask it wherever the live run does."""
    cls = get_world(world)
    asked = []
    answer = cls.rule_action
    monkeypatch.setattr(cls, "rule_action", lambda self, aid: asked.append(aid) or answer(self, aid))
    runs = {}
    for kept in (True, False):
        monkeypatch.setattr(cls, "rule_answer_kept", kept)
        asked.clear()
        result = pair(world, objective, params, rounds, "oracle", tmp_path / str(kept), controller_options=SMALL)
        runs[kept] = (len(asked), (tmp_path / str(kept) / "decisions.jsonl").read_text(), result["lift"])
    assert runs[False][1:] == runs[True][1:]
    assert runs[False][0] < runs[True][0]
