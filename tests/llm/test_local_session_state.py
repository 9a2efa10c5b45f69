"""A session agent's later call with the real local model prefills only its new tokens: each
conversation's state is saved after its answer and restored at its next call, even when the
other agent's call ran in between (the controller alternates agents)."""

from __future__ import annotations

from pathlib import Path

from mam_bench.records import read_jsonl
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, run_pair
from mam_bench.steering.llm import LLMController
from tests.llm.local_model_limits import MARKS

pytestmark = MARKS
#: tokens around an answer that the chat template adds or the tokenizer splits differently
SLACK = 8


def test_later_session_calls_prefill_only_their_new_tokens(tmp_path: Path) -> None:
    options = {"model": "local:gemma3-270m", "agent": "session", "turn_requests": 2, "one_call": True}
    spec = PairSpec.build(world="voter", seed=1000, controller="llm", rounds=2, influence=2, controller_options=options)
    ctl = LLMController(get_world("voter"), "spread", **options)
    run_pair(spec, tmp_path, controller=ctl)
    calls = read_jsonl(tmp_path / "llm_calls.jsonl")
    assert calls and all(c["error"] is None for c in calls)
    assert all(0 <= c["prefilled_tokens"] <= c["input_tokens"] for c in calls)
    previous: dict[int, int] = {}
    later = []
    for c in calls:
        if c["actor_id"] in previous:
            later.append((c, previous[c["actor_id"]]))
        previous[c["actor_id"]] = c["input_tokens"]
    assert len(previous) == 2 and later
    # a later call carries the whole conversation, yet evaluates only what is new since the same
    # agent's previous call (give or take the few tokens of the chat template around its answer)
    new = [(c["prefilled_tokens"], c["input_tokens"] - before) for c, before in later]
    assert all(prefilled <= added + SLACK for prefilled, added in new), new
