"""An endpoint that answers, but never with anything playable, stops the run after a bounded number
of decisions (no stall clock fires: every call is answered); one that is sometimes playable plays on."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from mam_bench.errors import BackendFailed
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.runner import PairSpec, run_pair
from mam_bench.steering.llm import LLMController
from mam_bench.steering.llm.options import LLMOptions

UNUSABLE_IN_A_ROW = LLMOptions.model_fields["unusable_in_a_row"].default


def controller(answers: list[str]) -> LLMController:
    return LLMController(
        SchellingWorld, "integrate", chat_model=FakeListChatModel(responses=answers), model="fake:list"
    )


def test_an_endpoint_whose_every_answer_is_unusable_stops_the_run(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=3, controller="llm", rounds=20)
    ctl = controller(["x" * 30_000, "lorem ipsum"])
    with pytest.raises(BackendFailed, match="unusable answers"):
        run_pair(spec, out=tmp_path / "run", controller=ctl)
    decided = (tmp_path / "run" / "decisions.jsonl").read_text().count("\n")
    assert decided == 16  # the 25th unusable decision came in round 2 of 20: it stopped there, unplayed


def test_a_run_that_accepts_every_policy_error_is_not_stopped(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=3, controller="llm", rounds=3)
    ctl = LLMController(
        SchellingWorld,
        "integrate",
        chat_model=FakeListChatModel(responses=["lorem ipsum"]),
        model="fake:list",
        unusable_in_a_row=0,
    )
    result = run_pair(spec, out=tmp_path / "run", controller=ctl)
    assert result["treatment"]["audit"]["policy_error"] == 3 * 16


def test_an_endpoint_that_is_sometimes_playable_plays_to_the_horizon(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=3, controller="llm", rounds=4)
    ctl = controller(["lorem ipsum"] * 3 + ['{"stay": true}'])
    result = run_pair(spec, out=tmp_path / "run", controller=ctl)
    assert result["treatment"]["rounds"] == 4
    assert result["treatment"]["audit"]["policy_error"] > UNUSABLE_IN_A_ROW  # many errors, never 25 in a row
