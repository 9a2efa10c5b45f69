"""Acceptance 2: the three worked examples run pairs with rule (lift exactly 0), stay, random and
heuristic, through the same runner and registration as every other world."""

from __future__ import annotations

import pytest

from mam_bench.runner import PairSpec, run_pair

EXAMPLES = ("boltzmann", "voter", "civil_violence")


@pytest.mark.parametrize("world", EXAMPLES)
@pytest.mark.parametrize("policy", ["rule", "stay", "random", "heuristic"])
def test_pair(world: str, policy: str) -> None:
    result = run_pair(PairSpec.build(world=world, seed=3, controller=policy, influence=3))
    audit = result["treatment"]["audit"]
    assert audit["identity_holds"] and audit["decisions"] == 3 * result["treatment"]["rounds"]
    if policy == "rule":
        assert result["delta"] == 0.0 and result["lift"] == 0.0
        assert result["treatment"]["final"] == result["reference"]["compared"]
    if policy == "stay":
        assert audit["stay"] + audit["failed"] == audit["decisions"]


@pytest.mark.parametrize(
    ("world", "seed", "objective", "expected"),
    [
        ("boltzmann", 3, "equalize", 0.0776),  # Gini 0.6328 -> 0.5552
        ("voter", 4, "spread", 0.9000),  # the reference reaches consensus on 0; the treatment holds 0.9
    ],
)
def test_heuristic_steers(world: str, seed: int, objective: str, expected: float) -> None:
    """Figures from `mam-bench run WORLD --seed S --policy heuristic --influence 3`."""
    result = run_pair(PairSpec.build(world=world, seed=seed, controller="heuristic", influence=3, objective=objective))
    assert result["lift"] == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("world", ["boltzmann", "voter", "civil_violence"])
def test_mimic_runs_the_rule_through_the_influence_path(world: str) -> None:
    result = run_pair(PairSpec.build(world=world, seed=3, controller="mimic", influence=3))
    assert result["treatment"]["audit"]["identity_holds"]
    assert result["treatment"]["audit"]["policy_error"] == 0
