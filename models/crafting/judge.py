"""LLM-judged CCE, AgentWorld's two judge steps over any LangChain chat model, in two variants.

`cce_mode=llm` (`traced_cce`) follows AgentWorld's CCE v2 script (`analysis/scripts/compute_cce_v2.py`):
step 1 shows the task's name and objective and every action (its text cut at 150 characters) and
asks for the final actions (S), leaving out every enabling step, transfers included; step 2 walks
back one round at a time, asking once per round which of its actions enable a contributor from a
*strictly later* round (actions of one round are taken as simultaneous), showing at most 30
contributors (text cut at 120), the objective and the task's context from its recipe section on
(cut at 1,500 characters), with what does not contribute (idle, unused) stated. Every id an answer
names joins C, as upstream adds them, except ids that name no action at all (upstream would fail
on them; they are counted as `unknown_ids`). Per-agent contribution (`pac_llm`: an agent's share
of its own actions in C) is reported as upstream's PAC. `cce_mode=llm_traced` keeps this
project's first reading of the script: the hand-over that delivered the target counts as final,
ids outside the round asked about are dropped, no "does not contribute" clause, our recipe
document whole (cut at 1,500).

`cce_mode=llm_chained` (`chained_cce`), this project's earlier variant: step 1 as above; step 2 walks
back one round at a time, from the last round to the first: it shows the contributors found so far
(in this round or later) and this round's other actions, and asks which of them enable a
contributor, inclusively; a round is asked again while it adds actions (turns resolve in order,
so one round can hold a chain). C = S plus every action judged contributing; CCE = |C| / |T| (0 for a failed task).
Provenance CCE is exact and a lower bound of the mechanical graph; this one is an inclusive upper
bound, so report both. Answers go through the same response cache as the influence agents.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from mam_bench.models.crafting.tasks import get_task

if TYPE_CHECKING:  # pragma: no cover
    from mam_bench.models.crafting.model import CraftingWorld

STEP1 = (
    "You evaluate a multi-agent crafting game.\nTask objective: {objective}\n"
    "Every action taken, one per line:\n{actions}\n"
    "Which actions directly accomplished the objective (the final actions that produced or delivered "
    "what the objective counts, not the ones that merely enabled them)? Answer with JSON only: "
    '{{"success_action_ids": [ids], "reasoning": "short"}}'
)
STEP2 = (
    "You evaluate causal collaboration in a multi-agent crafting game.\nTask objective: {objective}\n"
    "Actions already known to contribute:\n{contributors}\n"
    "Candidate actions from round {round}:\n{candidates}\n"
    "Which candidates enabled a contributing action: produced a resource it used, moved an agent "
    "where it was needed, passed coordinating information, or was a prerequisite? Be INCLUSIVE. "
    'Answer with JSON only: {{"contributing_ids": [ids], "not_contributing_ids": [ids]}}'
)


def action_line(a: dict[str, Any], usernames: dict[int, str]) -> str:
    args = ", ".join(f"{k}={v}" for k, v in a["args"].items())
    return f"[{a['id']}] Round {a['round']}, {usernames[a['agent']]}: {a['tool']}({args})"


def _ids(text: str, key: str) -> set[int]:
    for block in re.findall(r"\{.*?\}", text, re.S):
        try:
            obj = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get(key), list):
            return {int(i) for i in obj[key] if isinstance(i, (int, str)) and str(i).lstrip("-").isdigit()}
    return set()


def model_name(chat_model: Any) -> str:
    return str(
        getattr(chat_model, "model_name", None) or getattr(chat_model, "model", None) or type(chat_model).__name__
    )


async def _ask(chat_model: Any, prompt: str, cache: Any, stats: dict[str, int]) -> str:
    from langchain_core.messages import HumanMessage  # optional dependency

    from mam_bench.response_cache import cache_key

    key = cache_key(
        model_name(chat_model), {"temperature": 0, "purpose": "cce_judge"}, [{"role": "user", "content": prompt}]
    )
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        stats["cache_hits"] += 1
        return str(hit["text"])
    reply = await chat_model.ainvoke([HumanMessage(content=prompt)])
    text = str(getattr(reply, "content", reply))
    stats["calls"] += 1
    usage = getattr(reply, "usage_metadata", None) or {}
    stats["input_tokens"] += int(usage.get("input_tokens", 0))
    stats["output_tokens"] += int(usage.get("output_tokens", 0))
    if cache is not None:
        cache.put(key, model_name(chat_model), {"text": text})
    return text


TRACED_STEP1 = (
    "You are judging a multi-agent collaboration in a crafting game.\nTASK: {task}\nOBJECTIVE: {objective}\n\n"
    "EVERY ACTION OF THE TRAJECTORY:\n{actions}\n\n"
    "Which actions are the final ones whose completion achieved the objective ({finals})? Leave out every "
    "enabling step ({enabling}). Answer with JSON only: "
    '{{"success_action_ids": [action ids], "reasoning": "short"}}'
)
#: what step 1 calls final and enabling: upstream's reading, and ours (`llm_traced`)
FINALS = {
    True: (
        "the craft that produced the target, the kill that defeated the target",
        "gathering, moving, chatting, transferring items",
    ),
    False: (
        "the craft that produced the target, the hand-over that delivered it",
        "gathering, moving, chatting, transferring materials",
    ),
}
TRACED_STEP2 = (
    "You are tracing causes in a multi-agent collaboration in a crafting game.\nOBJECTIVE: {objective}\n"
    "RECIPES AND RESOURCES:\n{recipes}\n\n"
    "These actions of LATER rounds contributed to the task's success:\n{contributors}\n\n"
    "Actions of round {round}:\n{candidates}\n\n"
    "Which of the round {round} actions enabled or contributed to a contributing action above: made an item "
    "it used (see the recipes), handed items to its agent, brought an agent where it was needed, passed "
    "information that coordinated it, or was a step before it? Be INCLUSIVE.{unused} Answer with JSON only: "
    '{{"contributing_ids": [ids from round {round}], "not_contributing_ids": [the other ids]}}'
)
#: upstream's step 2 also says what does not contribute
UNUSED = (
    " An action does NOT contribute when it has nothing to do with any contributing action (sleeping, "
    "wandering) or when no contributing action ever uses what it did."
)
#: where upstream's step 2 context starts, in the order it looks for them
CONTEXT_MARKERS = ("CRAFTING RECIPES", "ITEM KEY REFERENCE", "RECIPE", "STRATEGY")
#: AgentWorld's CCE v2 bounds: action text, contributor text, contributors shown, recipe context
ACTION_CHARS, CONTRIBUTOR_CHARS, MAX_CONTRIBUTORS, RECIPE_CHARS = 150, 120, 30, 1500


def _text(a: dict[str, Any], usernames: dict[int, str], cut: int, with_round: bool = True) -> str:
    line = action_line(a, usernames)
    head, _, body = line.partition("] ")
    if not with_round:
        body = body.partition(", ")[2]
    who, _, what = body.rpartition(": ")
    return f"{head}] {who}: {what[:cut]}"


def step2_context(world: CraftingWorld, upstream: bool) -> str:
    """The context step 2 shows: upstream's is the task file's `relevant_game_context` (our recipe
    document for our tasks) from its first marker on; `llm_traced` shows our document whole."""
    from mam_bench.models.crafting.observe import relevant_context

    text = relevant_context(world.task.name)
    if upstream:
        text = str((world.task.agentworld or {}).get("file", {}).get("relevant_game_context") or text)
        starts = [k for k in (text.find(m) for m in CONTEXT_MARKERS) if k != -1]
        text = text[starts[0] :] if starts else text
    return text if len(text) <= RECIPE_CHARS else text[:RECIPE_CHARS] + "\n..."


def pac(log: list[dict[str, Any]], green: set[int], usernames: dict[int, str]) -> dict[str, float]:
    """Upstream's per-agent contribution: the share of an agent's own actions that contribute."""
    out = {}
    for agent, name in usernames.items():
        own = [a["id"] for a in log if a["agent"] == agent]
        out[name] = round(sum(i in green for i in own) / len(own), 4) if own else 0.0
    return out


async def traced_cce(world: CraftingWorld, chat_model: Any, cache: Any = None, upstream: bool = True) -> dict[str, Any]:
    """CCE as AgentWorld's CCE v2 script traces it (module docstring), or as our first reading of it
    (`upstream=False`, `cce_mode=llm_traced`); `cache` a `ResponseCache`."""
    log = list(world.log)
    usernames = {a.actor_id: a.username for a in world.actors}
    task = get_task(world.task.name)
    stats = {"calls": 0, "cache_hits": 0, "input_tokens": 0, "output_tokens": 0}
    empty = {"cce_llm": 0.0, "contributing": [], "success": [], "judge_model": model_name(chat_model), **stats}
    if not log or world.verify()[0] != 1:  # the task's own verifier gates success, as upstream's does
        return {**empty, **({"pac_llm": pac(log, set(), usernames), "unknown_ids": 0} if upstream else {})}
    by_id = {a["id"]: a for a in log}
    actions = "\n".join(_text(a, usernames, ACTION_CHARS) for a in log)
    finals, enabling = FINALS[upstream]
    prompt = TRACED_STEP1.format(
        task=task.name, objective=task.objective, actions=actions, finals=finals, enabling=enabling
    )
    named = _ids(await _ask(chat_model, prompt, cache, stats), "success_action_ids")
    success = named & set(by_id)
    unknown = len(named - set(by_id))
    green = set(success)
    recipes = step2_context(world, upstream)
    for r in sorted({a["round"] for a in log}, reverse=True):
        candidates = [a for a in log if a["round"] == r and a["id"] not in green]
        later = sorted(i for i in green if by_id[i]["round"] > r)
        if not candidates or not later:
            continue
        prompt = TRACED_STEP2.format(
            objective=task.objective,
            recipes=recipes,
            round=r,
            contributors="\n".join(
                "  - " + _text(by_id[i], usernames, CONTRIBUTOR_CHARS) for i in later[:MAX_CONTRIBUTORS]
            ),
            candidates="\n".join(_text(a, usernames, ACTION_CHARS, with_round=False) for a in candidates),
            unused=UNUSED if upstream else "",
        )
        named = _ids(await _ask(chat_model, prompt, cache, stats), "contributing_ids")
        if upstream:  # every id named joins, as upstream's green_set.update; none names no action
            green |= named & set(by_id)
            unknown += len(named - set(by_id))
        else:
            green |= named & {a["id"] for a in candidates}
    return {
        "cce_llm": len(green) / len(log),
        "contributing": sorted(green),
        "success": sorted(success),
        "judge_model": model_name(chat_model),
        **stats,
        **({"pac_llm": pac(log, green, usernames), "unknown_ids": unknown} if upstream else {}),
    }


async def chained_cce(world: CraftingWorld, chat_model: Any, cache: Any = None) -> dict[str, Any]:
    """CCE by the chained variant (module docstring); `cache` is a `ResponseCache` (or None)."""
    log = [a for a in world.log]
    usernames = {a.actor_id: a.username for a in world.actors}
    objective = get_task(world.task.name).objective
    stats = {"calls": 0, "cache_hits": 0, "input_tokens": 0, "output_tokens": 0}
    succeeded = world.verify()[0] == 1
    if not log or not succeeded:
        return {"cce_llm": 0.0, "contributing": [], "success": [], "judge_model": model_name(chat_model), **stats}
    known = {a["id"] for a in log}
    lines = "\n".join(action_line(a, usernames) for a in log)
    text = await _ask(chat_model, STEP1.format(objective=objective, actions=lines), cache, stats)
    success = _ids(text, "success_action_ids") & known
    c = set(success)
    by_id = {a["id"]: a for a in log}
    for r in sorted({a["round"] for a in log}, reverse=True):
        while True:  # turns resolve in order, so a round can hold a chain: ask again until nothing is added
            contributors = sorted(i for i in c if by_id[i]["round"] >= r)
            candidates = [a for a in log if a["round"] == r and a["id"] not in c]
            if not contributors or not candidates:
                break
            prompt = STEP2.format(
                objective=objective,
                round=r,
                contributors="\n".join(action_line(by_id[i], usernames) for i in contributors),
                candidates="\n".join(action_line(a, usernames) for a in candidates),
            )
            text = await _ask(chat_model, prompt, cache, stats)
            added = _ids(text, "contributing_ids") & {a["id"] for a in candidates}
            if not added:
                break
            c |= added
    return {
        "cce_llm": len(c) / len(log),
        "contributing": sorted(c),
        "success": sorted(success),
        "judge_model": model_name(chat_model),
        **stats,
    }


def cohen_kappa(a: list[bool], b: list[bool]) -> float:
    """Agreement beyond chance between two yes/no labelings of the same items."""
    n = len(a)
    if n == 0 or n != len(b):
        raise ValueError("two labelings of the same non-empty list")
    po = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    return 1.0 if pe == 1 else (po - pe) / (1 - pe)


async def judge_outcomes(world: CraftingWorld, out: Any = None) -> dict[str, Any]:
    """The crafting world's judged outcomes (its registration's `judge`): AgentWorld's own
    verifier's words where the task has criteria, and under `cce_mode=llm` (or `llm_traced`,
    `llm_chained`) AgentWorld's LLM-judged CCE beside the provenance CCE, through the same response
    cache as the LLM controller (`out/judge_cache.sqlite`), calls and tokens counted."""
    verdict = {}
    if world.task.criteria is not None:
        score, reason = world.verify()
        verdict = {"agentworld_verifier": {"score": score, "reason": reason}}
    if world.params.cce_mode not in ("llm", "llm_traced", "llm_chained"):
        return verdict
    from pathlib import Path

    from mam_bench.response_cache import ResponseCache

    cache = ResponseCache(Path(out) / "judge_cache.sqlite" if out is not None else None)
    try:
        model, mode = world.judge_chat_model(), world.params.cce_mode
        if mode == "llm_chained":
            judged = await chained_cce(world, model, cache=cache)
        else:
            judged = await traced_cce(world, model, cache=cache, upstream=mode == "llm")
    finally:
        cache.close()
    return {
        **verdict,
        "cce": world.metrics()["cce"],
        **{k: v for k, v in judged.items() if k not in ("contributing", "success")},
    }
