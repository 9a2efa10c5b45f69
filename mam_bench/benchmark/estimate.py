"""What an LLM benchmark will cost, before the first call: calls and tokens per scenario, USD.

Turns are exact: influence agents x rounds x phases (2, or 1 with one_call) x seeds x models. A
stateless turn is one call before retries and repairs; a session turn (agent=session) at most
turn_requests answers and one compaction summary, so its calls are a bound. Tokens are an
estimate: the round-0 prompt of the scenario's first influence agent as the world renders it (4
characters a token), plus a full board window of posts for the later rounds (a session's request:
its conversation up to the compaction budget instead), and `max_tokens` (else OUTPUT_TOKENS)
answered per call. Where a model's earlier calls are on record (rates.py), its repairs are added at
their recorded rate and the time is its recorded seconds a call times the calls, one at a time.
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
    #: calls with repairs at the model's recorded rate, and their seconds one at a time (None: no record)
    expected_calls: int | None = None
    seconds: float | None = None


def prompt_tokens(case: Any, seed: int) -> int:
    """Input tokens of one call of this case: its round-0 prompt and a full board window."""
    from mam_bench.prompts import WorldPrompts
    from mam_bench.protocol import Request
    from mam_bench.registry import load, part_of
    from mam_bench.runner import prepared

    spec = case.pair_spec(seed)
    prep = prepared(spec)
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


def estimate(suite: Any, price_table: Any = None, rates: dict[str, Any] | None = None) -> list[ScenarioCost]:
    """One line per LLM case of the suite (a scenario at a model); USD None for an unpriced model.
    `rates`: model -> its recorded Rate (rates.py), which adds repairs and a time to its lines."""
    from mam_bench.pricing import PriceTable  # only an LLM benchmark gets here
    from mam_bench.runner import prepared

    prices = PriceTable(price_table)
    seeds = suite.seed_list()
    out = []
    for case in suite.expanded_cases():
        if case.controller_name != "llm":
            continue
        prep = prepared(case.pair_spec(seeds[0]))
        options = case.controller_options
        phases = 1 if options.get("one_call") else 2
        model = case.model or options.get("model", "")
        calls, carried = per_turn(options, model)
        calls *= len(seeds) * suite.repeats * len(prep.influence_ids) * prep.horizon * phases
        tin = calls * (prompt_tokens(case, seeds[0]) + carried)
        tout = calls * int(options.get("max_tokens") or OUTPUT_TOKENS)
        rate = (rates or {}).get(model)
        expected = round(calls * (1 + rate.repairs_per_ask)) if rate else None
        seconds = expected * rate.seconds if rate and rate.seconds is not None else None
        if rate:  # a repair is asked with the same prompt and answered with up to the same cap
            tin, tout = round(tin * expected / calls), round(tout * expected / calls)
        usd = prices.cost(model, tin, tout) if prices.priced(model) else None
        out.append(ScenarioCost((case.name or "").split("/")[0], model, calls, tin, tout, usd, expected, seconds))
    return out


def _hours(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds / 3600:.1f} h"


def estimate_text(lines: list[ScenarioCost]) -> str:
    """The table; with a recorded rate for some model, two more columns: its calls with repairs
    and the time one call at a time takes (tokens and USD then count the repairs too)."""
    rated = any(c.expected_calls is not None for c in lines)
    more = f" {'w/ repairs':>10} {'time':>8}" if rated else ""
    rows = [f"{'scenario':32} {'model':24} {'calls':>7} {'in tok':>10} {'out tok':>9} {'USD':>9}{more}"]
    for c in lines:
        usd = "unpriced" if c.usd is None else f"{c.usd:.4f}"
        tail = f" {'-' if c.expected_calls is None else c.expected_calls:>10} {_hours(c.seconds):>8}" if rated else ""
        rows.append(
            f"{c.scenario:32} {c.model:24} {c.calls:>7} {c.input_tokens:>10} {c.output_tokens:>9} {usd:>9}{tail}"
        )
    calls = sum(c.calls for c in lines)
    tin = sum(c.input_tokens for c in lines)
    tout = sum(c.output_tokens for c in lines)
    priced = [c.usd for c in lines if c.usd is not None]
    usd = f"{sum(priced):.2f}" if priced else "unpriced"
    if priced and len(priced) < len(lines):
        usd += " (+ unpriced models)"
    tail = ""
    if rated:
        expected = sum(c.expected_calls if c.expected_calls is not None else c.calls for c in lines)
        timed = [c.seconds for c in lines]
        total = None if any(t is None for t in timed) else sum(t for t in timed if t is not None)
        tail = f" {expected:>10} {_hours(total):>8}"
    rows.append(f"{'total':32} {'':24} {calls:>7} {tin:>10} {tout:>9} {usd:>9}{tail}")
    return "\n".join(rows)
