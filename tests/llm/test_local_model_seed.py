"""The real local model samples by the seed each call sends: the same turn's seed gives the same
answer at temperature 1, other turns' seeds give other answers."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from mam_bench.steering.llm.call import turn_seed
from mam_bench.steering.llm.local_model import LocalChatModel
from tests.llm.local_model_limits import MARKS

pytestmark = MARKS


def test_the_local_model_samples_by_the_calls_seed() -> None:
    model = LocalChatModel(temperature=1.0, max_tokens=12)
    ask = [HumanMessage(content="Name a colour and a fruit.")]
    seeds = [turn_seed(0, r, 1, "decision", 0) for r in range(4)]
    first = [model.bind(seed=s).invoke(ask).content for s in seeds]
    again = [model.bind(seed=s).invoke(ask).content for s in seeds]
    assert first == again
    assert len(set(first)) > 1, first
