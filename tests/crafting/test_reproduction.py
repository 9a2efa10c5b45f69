"""AgentWorld reproduction mode: every agent is an influence agent, chat only (board off).

A scripted fake LLM answers in text with JSON tool calls (AgentWorld's tool names); the answers
replay what a good team would do, plus chat, a request and one unparseable answer, so the run
exercises every action type and is recorded and scored like an LLM run.
"""

import json

import pytest

from mam_bench.models.crafting.actions import TOOLS
from mam_bench.models.crafting.agentworld.tools import AGENTWORLD_TOOLS
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.records import read_jsonl, read_rounds
from mam_bench.runner import PairSpec, run_pair
from mam_bench.world import play_round
from tests.crafting.scripted import ScriptedLLM

AW_NAMES = {
    "harvest": "harvest_resource",
    "craft": "craft_item",
    "transfer": "transfer_items",
    "request": "request_items",
}
PARAMS = {"task": "fishing_gear", "board": "off", "turn_order": "fixed"}


def _script() -> dict[tuple[int, int], str]:
    w = CraftingWorld(**PARAMS, seed=4)
    while not w._done:
        play_round(w)
    script = {}
    for a in w.log:
        name = AW_NAMES.get(a["tool"], a["tool"])
        script[(a["round"], a["agent"])] = f"I will {a['tool']} now.\n" + json.dumps(
            {"name": name, "arguments": a["args"]}
        )
    sleeps = sorted(k for k, v in script.items() if '"sleep"' in v)
    script[sleeps[0]] = '{"tool": "chat", "message": "fisher_1 the fishing_rod is on its way, go to river"}'
    script[sleeps[1]] = '{"tool": "request", "item": "fish", "qty": 1, "to": 5}'
    script[sleeps[2]] = "Hmm, let me think about this for a while."  # no tool call: policy_error
    script[sleeps[3]] = '{"tool": "chat", "message": "cook_1 thanks", "to": 0}'
    return script


@pytest.mark.parametrize("protocol", ["start_of_round", "round_robin"])
def test_scripted_llm_drives_a_full_task_in_reproduction_mode(tmp_path, protocol):
    n = len(CraftingWorld(task="fishing_gear").actor_ids())
    llm = ScriptedLLM(_script())
    params = {**PARAMS, "protocol": protocol}
    spec = PairSpec.build(world="crafting", seed=4, params=params, influence=n, controller="llm")
    res = run_pair(spec, out=tmp_path, controller=llm)
    assert res["influence_ids"] == list(range(n)) and res["params"]["board"] is False
    final = res["treatment"]["final"]
    assert res["treatment"]["status"] == "success" and final["sr"] == 1.0 and final["psr"] == 1.0
    assert final["chats"] == 2 and 0 < final["cce"] < 1
    audit = res["treatment"]["audit"]
    assert audit["identity_holds"] and audit["policy_error"] == 1
    decisions = read_jsonl(tmp_path / "decisions.jsonl")
    assert {d["action"]["tool"] for d in decisions if d["action"]} >= set(TOOLS[:8])  # the economy's eight tools
    assert all(d["raw"] for d in decisions) and not any(d["deferred"] for d in decisions)
    assert (tmp_path / "board.jsonl").read_text() == ""  # chat only: no board
    assert len(llm.prompts) == len(decisions)
    rows = read_rounds(tmp_path, "treatment.jsonl")
    assert rows[-1]["metrics"]["sr"] == 1.0 and "checkpoints" in rows[-1]


def test_reproduction_mode_reaches_the_new_tools(tmp_path):
    """Every agent scripted in fur_trade: the rule's own actions (attacks, offers, accepts) replayed
    as text, plus an explore and a meal in place of two sleeps, so the five new tools pass
    through the LLM path."""
    params = {"task": "fur_trade", "board": "off", "turn_order": "fixed"}
    w = CraftingWorld(**params, seed=2)
    while not w._done and w.round < w.budget:
        play_round(w)
    script = {(a["round"], a["agent"]): json.dumps({"tool": a["tool"], **a["args"]}) for a in w.log}
    sleeps = sorted(k for k, v in script.items() if '"sleep"' in v)
    script[sleeps[0]] = '{"tool": "explore"}'  # in place of sleeps, so the replay stays on course
    script[sleeps[1]] = '{"tool": "eat_food", "item": "apple"}'  # an AgentWorld-style alias
    n = len(w.actors)
    spec = PairSpec.build(world="crafting", seed=2, params=params, influence=n, controller="llm")
    res = run_pair(spec, out=tmp_path, controller=ScriptedLLM(script))
    assert res["treatment"]["audit"]["identity_holds"]
    decisions = read_jsonl(tmp_path / "decisions.jsonl")
    assert {d["action"]["tool"] for d in decisions if d["action"]} >= set(
        TOOLS[8:]
    ) - AGENTWORLD_TOOLS  # those only in its tasks
    assert res["treatment"]["final"]["psr"] > 0  # the replayed hunt and trades still moved the task
