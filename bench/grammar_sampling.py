"""Decode tokens/s of the local model under a JSON-schema grammar, with the grammar applied to the
whole vocabulary at every token (llama-cpp-python's own chain), and with the chosen token checked
first (`LocalLlama.sample_first`): on a rejection the whole vocabulary, or first the most likely
`TOP_CANDIDATES` tokens (the default; the whole vocabulary only when none of them is legal).

Each request is a quick-tier world's round-0 one-call request in the compact style, asked once to
fill the KV cache and then again, timed: its prompt is cached, so the second call is decoding.
Answers are compared (at temperature 0 they are the same) and each is parsed and checked legal.

    nice python bench/grammar_sampling.py [--worlds schelling,voter] [--repeats 2]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from mam_bench.prompts import prompts_for
from mam_bench.protocol import Request
from mam_bench.registry import get_world
from mam_bench.runner import PairSpec, prepare
from mam_bench.steering.llm.local_llama import TOP_CANDIDATES
from mam_bench.steering.llm.local_model import LocalChatModel

QUICK = ("schelling", "flocking", "boltzmann", "voter", "civil_violence")


def case(world: str) -> tuple[Any, Request, Any]:
    world_cls = get_world(world)
    objective = next(iter(world_cls.scoring.objectives))
    spec = PairSpec.build(world=world, seed=1000, controller="stay", influence=2, rounds=5, objective=objective)
    prep = prepare(spec)
    live = prep.new_world(True)
    aid = prep.influence_ids[0]
    req = Request(world, aid, 0, objective, live.observe(aid), (), "one_call")
    return prompts_for(world_cls, objective, style="compact"), req, world_cls


def ask(model: LocalChatModel, prompts: Any, req: Request) -> tuple[str, int, float]:
    messages = [SystemMessage(content=prompts.system(req)), HumanMessage(content=prompts.user(req, "one_call"))]
    bound = model.bind(json_schema=prompts.answer_schema("one_call", req))
    started = time.perf_counter()
    msg = asyncio.run(bound.ainvoke(messages))
    seconds = time.perf_counter() - started
    return str(msg.content), int(msg.usage_metadata["output_tokens"]), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worlds", default=",".join(QUICK))
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    cases = [case(w) for w in args.worlds.split(",")]
    modes = (("grammar on every token", False, 0), ("sample first, whole vocab", True, 0))
    modes += ((f"sample first, top {TOP_CANDIDATES}", True, TOP_CANDIDATES),)
    answers: dict[str, list[str]] = {}
    print(f"{'mode':<30}{'tokens':>8}{'seconds':>9}{'tokens/s':>10}{'rejected':>10}{'widened':>9}  legal")
    for name, first, top in modes:
        model = LocalChatModel(sample_first=first)
        llama = model._load()
        llama.top_candidates = top
        tokens, seconds, legal, texts = 0, 0.0, 0, []
        llama.sampled = llama.rejected = llama.widened = 0
        for prompts, req, _ in cases:
            ask(model, prompts, req)  # fills the cache: the timed asks decode
            for _ in range(args.repeats):
                text, n, s = ask(model, prompts, req)
                tokens, seconds = tokens + n, seconds + s
                legal += prompts.parse(text, req, "one_call").error is None
            texts.append(text)
        answers[name] = texts
        rej = f"{llama.rejected}/{llama.sampled}" if first else "-"
        wide = str(llama.widened) if first else "-"
        total = len(cases) * args.repeats
        print(f"{name:<30}{tokens:>8}{seconds:>9.1f}{tokens / seconds:>10.1f}{rej:>10}{wide:>9}  {legal}/{total}")
    first_answers = next(iter(answers.values()))
    for name in list(answers)[1:]:
        same = sum(a == b for a, b in zip(first_answers, answers[name]))
        print(f"{name}: the same answer as the grammar on every token on {same} of {len(cases)} requests")


if __name__ == "__main__":
    main()
