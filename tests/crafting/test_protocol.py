"""AgentWorld's round-robin protocol (`protocol=round_robin`): each influence agent is asked at its
own turn, from an observation that already shows what the agents before it did in that round.

The expected values are read off the world itself: the order in which agents were asked is the
round's turn order, a chat is visible to everyone after its sender, and a harvest lowers the stock
the next miner at the mine observes by what the harvester received.
"""

import asyncio

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from mam_bench.controller import Controller
from mam_bench.models.crafting.model import CraftingWorld
from mam_bench.models.crafting.tasks import all_tasks
from mam_bench.protocol import Decision
from mam_bench.runner import PairSpec, prepare, run_pair, run_treatment
from mam_bench.steering.llm.controller import LLMController
from tests.crafting.test_reproduction import PARAMS as REPRO
from tests.crafting.test_reproduction import _script

NODE = "ore1"


class Recorder(Controller):
    """Round 0: miners harvest ore1, everyone else chats a token; later rounds: everyone chats."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, object]] = []
        self.batches: list[int] = []

    async def decide(self, requests):
        self.batches.append(len(requests))
        out = []
        for req in requests:
            obs = req.observation
            self.seen.append((req.round, req.actor_id, obs))
            if req.round == 0 and obs.role == "miner":
                out.append(Decision(action={"tool": "harvest", "node": NODE}))
            else:
                out.append(Decision(action={"tool": "chat", "message": f"tok-{req.round}-{req.actor_id}"}))
        return out


def _play(protocol: str):
    params = {"task": "forge_vanguard", "protocol": protocol, "board": "off", "rounds": 3}
    prep = prepare(PairSpec.build(world="crafting", seed=7, params=params, influence=10, controller="stay"))
    rec = Recorder()
    world, *_ = asyncio.run(run_treatment(prep, rec))
    return world, rec


def _tokens(obs, r: int) -> set[str]:
    return {text for rr, _, _, text in obs.chat if rr == r}


def test_each_agent_sees_the_turns_before_it_in_the_same_round():
    world, rec = _play("round_robin")
    assert set(rec.batches) == {1}  # one call per turn
    for r in range(3):
        turns = [(aid, obs) for rr, aid, obs in rec.seen if rr == r]
        assert sorted(a for a, _ in turns) == list(range(10))
        before: set[str] = set()
        for aid, obs in turns:
            assert _tokens(obs, r) == before, (r, aid)
            if not (r == 0 and obs.role == "miner"):
                before.add(f"tok-{r}-{aid}")
        # a chat costs the turn: one logged action per agent and round
        assert sorted(e["agent"] for e in world.log if e["round"] == r) == list(range(10))
    # round 0 at the mine: each miner sees the stock the earlier miners left
    miners = [(aid, obs) for rr, aid, obs in rec.seen if rr == 0 and obs.role == "miner"]
    nxt = {aid: obs for rr, aid, obs in rec.seen if rr == 1}
    stock = dict((n, s) for n, _, s, _ in miners[0][1].nodes)[NODE]
    for aid, obs in miners:
        assert dict((n, s) for n, _, s, _ in obs.nodes)[NODE] == stock
        got = nxt[aid].inventory.get("iron_ore", 0) - obs.inventory.get("iron_ore", 0)
        stock -= got
    assert stock < dict((n, s) for n, _, s, _ in miners[0][1].nodes)[NODE]  # somebody's harvest yielded


def test_start_of_round_protocol_shows_nobody_the_current_round():
    _, rec = _play("start_of_round")
    assert set(rec.batches) == {10}  # one batch per round
    assert all(not _tokens(obs, r) for r, _, obs in rec.seen)
    stocks = {
        dict((n, s) for n, _, s, _ in obs.nodes)[NODE] for r, _, obs in rec.seen if r == 0 and obs.role == "miner"
    }
    assert len(stocks) == 1


@pytest.mark.parametrize("task", sorted(all_tasks()))
def test_rule_under_round_robin_is_null_steering_on_every_task(task):
    n = len(CraftingWorld(task=task).actor_ids())
    spec = PairSpec.build(world="crafting", seed=3, params={"task": task, "protocol": "round_robin"}, influence=n)
    res = run_pair(spec)
    assert res["lift"] == 0.0 and res["treatment"]["final"] == res["reference"]["compared"]


class SpyModel(BaseChatModel):
    """A LangChain chat model answering from the script by the (round, id) its prompt shows."""

    script: dict
    calls: list = []

    @property
    def _llm_type(self) -> str:
        return "spy-fake"

    def _generate(self, messages: list[BaseMessage], stop=None, run_manager=None, **kw) -> ChatResult:
        self.calls.append(messages)
        head = str(messages[0].content).split("=== CURRENT ENVIRONMENT OBSERVATION ===\n")[1].split("\n")[0]
        r, me = int(head.split(" R")[1].split("/")[0]), int(head.split("me=")[1].split(" ")[0])
        text = self.script.get((r, me), '{"tool": "sleep"}')
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


@pytest.mark.parametrize("protocol", ["round_robin", "start_of_round"])
def test_agentworld_prompts_and_fresh_chat_through_a_fake_chat_model(tmp_path, protocol):
    script = _script()
    world_cls = CraftingWorld
    n = len(world_cls(task=REPRO["task"]).actor_ids())
    params = {**REPRO, "protocol": protocol}
    spec = PairSpec.build(
        world="crafting", seed=4, params=params, influence=n, controller="llm", objective="accelerate"
    )
    model = SpyModel(script=script, calls=[])
    ctl = LLMController(world_cls, "accelerate", chat_model=model, model="fake:spy", repair=0)
    res = run_pair(spec, tmp_path, controller=ctl)
    assert res["treatment"]["status"] == "success" and res["treatment"]["final"]["sr"] == 1.0
    system, user = model.calls[0][0], model.calls[0][-1]
    assert isinstance(system, SystemMessage)  # E.1: the one-tool rule, observation and chat blocks
    for part in ("MUST call exactly ONE tool", "=== CURRENT ENVIRONMENT OBSERVATION ===", "=== CHAT HISTORY ==="):
        assert part in system.content
    assert user.content.startswith("**Task:**")  # E.2: task, objectives, context, team
    for part in (
        "**Primary Objective:**",
        "**Secondary Objectives:**",
        "**Relevant Context:**",
        "**Team Information:**",
    ):
        assert part in user.content
    # the scripted chat (fixed turn order) is seen by the agents after its sender in the same round
    (r, sender) = next(k for k, v in script.items() if "fishing_rod is on its way" in v)
    same_round_after = [
        m
        for m in model.calls
        if f" R{r}/" in str(m[0].content) and int(str(m[0].content).split("me=")[1].split(" ")[0]) > sender
    ]
    quoted = [m for m in same_round_after if "fishing_rod is on its way" in str(m[0].content)]
    assert same_round_after and len(quoted) == (len(same_round_after) if protocol == "round_robin" else 0)
