"""What an LLM benchmark will cost, before the first call: calls and tokens per scenario, USD.

Turns are exact: influence agents x rounds x phases (2, or 1 with one_call) x seeds x models. A
stateless turn is one call before retries and repairs; a session turn (agent=session) at most
turn_requests answers and one compaction summary, so its calls are a bound. Tokens are an
estimate: the round-0 prompt of the scenario's first influence agent as the world renders it (4
characters a token), plus a full board window of posts for the later rounds (a session's request:
its conversation up to the compaction budget instead), and `max_tokens` (else OUTPUT_TOKENS)
answered per call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: output tokens assumed per call when the options set no max_tokens
OUTPUT_TOKENS = 256
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class ScenarioCost:
    scenario: str
    model: str
    calls: int
    input_tokens: int
    output_tokens: int
    usd: float | None


def prompt_tokens(case: Any, seed: int) -> int:
    """Input tokens of one call of this case: its round-0 prompt and a full board window."""
    from mam_bench.prompts import WorldPrompts
    from mam_bench.protocol import Request
    from mam_bench.registry import load, part_of
    from mam_bench.runner import prepare

    spec = case.pair_spec(seed)
    prep = prepare(spec)
    world = prep.new_world(True)
    aid = prep.influence_ids[0]
    path = part_of(prep.world_cls, "prompts")
    prompts = (load(path) if path else WorldPrompts)(prep.world_cls, prep.objective)
    phase = "one_call" if spec.controller_options.get("one_call") else "decision"
    req = Request(world=spec.world, actor_id=aid, round=0, objective=prep.objective, observation=world.observe(aid))
    chars = len(prompts.system(req)) + len(prompts.user(req, phase))
    board = spec.board_window * len(prep.influence_ids) * int(spec.controller_options.get("post_chars", 600))
    return (chars + board) // CHARS_PER_TOKEN


def per_turn(options: dict[str, Any], model: str) -> tuple[int, int]:
    """(calls at most, conversation tokens carried per call) of one turn, as the llm controller
    bounds it (a controller without a bound: one call a turn)."""
    from mam_bench.registry import controller_part

    bound = controller_part("llm", "turn_bound")
    return bound(options, model) if bound else (1, 0)


def estimate(suite: Any, price_table: Any = None) -> list[ScenarioCost]:
    """One line per LLM case of the suite (a scenario at a model); USD None for an unpriced model."""
    from mam_bench.pricing import PriceTable  # only an LLM benchmark gets here
    from mam_bench.runner import prepare

    prices = PriceTable(price_table)
    seeds = suite.seed_list()
    out = []
    for case in suite.expanded_cases():
        if case.controller != "llm":
            continue
        prep = prepare(case.pair_spec(seeds[0]))
        options = case.controller_options
        phases = 1 if options.get("one_call") else 2
        model = case.model or options.get("model", "")
        calls, carried = per_turn(options, model)
        calls *= len(seeds) * suite.repeats * len(prep.influence_ids) * prep.horizon * phases
        tin = calls * (prompt_tokens(case, seeds[0]) + carried)
        tout = calls * int(options.get("max_tokens") or OUTPUT_TOKENS)
        usd = prices.cost(model, tin, tout) if prices.priced(model) else None
        out.append(ScenarioCost((case.name or "").split("/")[0], model, calls, tin, tout, usd))
    return out


def estimate_text(lines: list[ScenarioCost]) -> str:
    rows = [f"{'scenario':32} {'model':24} {'calls':>7} {'in tok':>10} {'out tok':>9} {'USD':>9}"]
    for c in lines:
        usd = "unpriced" if c.usd is None else f"{c.usd:.4f}"
        rows.append(f"{c.scenario:32} {c.model:24} {c.calls:>7} {c.input_tokens:>10} {c.output_tokens:>9} {usd:>9}")
    calls = sum(c.calls for c in lines)
    tin = sum(c.input_tokens for c in lines)
    tout = sum(c.output_tokens for c in lines)
    priced = [c.usd for c in lines if c.usd is not None]
    usd = f"{sum(priced):.2f}" if priced else "unpriced"
    if priced and len(priced) < len(lines):
        usd += " (+ unpriced models)"
    rows.append(f"{'total':32} {'':24} {calls:>7} {tin:>10} {tout:>9} {usd:>9}")
    return "\n".join(rows)
