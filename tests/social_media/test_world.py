"""The social-media world under the contract: check_world, exact null steering through the CLI, a
heuristic pair with its placebos, the influence accounts' turn, and the masked outcome."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mam_bench.capabilities import null_action
from mam_bench.cli import main
from mam_bench.commands.run import BASELINES
from mam_bench.models.social_media.world import SocialMediaWorld
from mam_bench.testing import check_world


def test_check_world_passes():
    assert check_world(SocialMediaWorld, seeds=(0, 1), rounds=6, influence=3)["seeds"] == 2


def run(tmp_path, *extra: str) -> dict:
    out = tmp_path / "run"
    argv = ["run", "social_media", "--seed", "3", "--rounds", "12", "--influence", "3", "--out", str(out), *extra]
    assert main(argv) == 0
    return json.loads((out / "result.json").read_text())


def test_null_steering_gives_lift_exactly_zero(tmp_path):
    result = run(tmp_path, "--policy", "rule")
    assert result["delta"] == 0.0 and result["lift"] == 0.0


@pytest.mark.slow
def test_the_depolarize_heuristic_runs_with_its_placebos(tmp_path):
    result = run(tmp_path, "--policy", "heuristic", "--objective", "depolarize")
    assert result["objective"] == "depolarize"
    assert set(result["baselines"]) == set(BASELINES)
    assert all(b["lift"] is not None for b in result["baselines"].values())


def test_a_post_reaches_the_followers_screens_and_the_account_is_masked():
    world = SocialMediaWorld(SocialMediaWorld.Params(n=40), seed=0, influence_ids=[1], mask_ids=[1])
    agent = world.actors()[1]
    m = world.model
    world.apply(agent, SocialMediaWorld.Action(post=1.0))
    followers = np.flatnonzero((m.follows == agent.index).any(axis=1))
    assert len(followers) and all(1.0 in [msg.content for msg in m.screen(int(f))] for f in followers)
    m.opinion[agent.index] = 55.0  # an absurd opinion on the masked account changes no metric
    assert world.outcome()["variance"] == pytest.approx(float(np.var(np.delete(m.opinion, agent.index))))


def test_post_and_repost_together_are_refused():
    with pytest.raises(ValueError, match="one message a turn"):
        SocialMediaWorld.Action(post=0.5, repost=True)


def test_the_menu_lists_every_legal_turn_once_with_the_null_first():
    menu = SocialMediaWorld.Action.legal_actions(None)
    assert menu[0] == null_action(SocialMediaWorld.Action)
    assert len(menu) == len({json.dumps(a, sort_keys=True) for a in menu}) == 14
    for action in menu:
        SocialMediaWorld.Action.model_validate(action)


def test_bad_parameters_are_named(tmp_path, capsys):
    assert main(["run", "social_media", "--param", "n=5", "--param", "k=4", "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err.startswith("error: param.k: ")
    assert not (tmp_path / "r").exists()


def test_the_board_places_users_by_opinion_and_draws_their_follow_links():
    world = SocialMediaWorld(SocialMediaWorld.Params(n=30, k=3), seed=2)
    snap = world.snapshot()
    by_id = {a["id"]: a for a in snap["agents"]}
    user = world.actors()[5]
    assert by_id[5]["xy"][0] == pytest.approx(float(world.model.opinion[user.index]), abs=1e-4)
    assert by_id[5]["board_state"] == round(float(world.model.opinion[user.index]), 1)
    assert len(snap["edges"]) == 30 * 3
    big = SocialMediaWorld(SocialMediaWorld.Params(n=400, k=3), seed=2).snapshot()
    assert "edges" not in big and len(big["state"]["values"]) <= 21  # opinions to one decimal: few states
