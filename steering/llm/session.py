"""Session agents (`agent=session`): each influence agent keeps one conversation over the run.

A turn is a few tool calls, each one JSON answer under a schema: `read_board`, `note` (a line in
the agent's private notebook, shown to it every turn and to nobody else), then `post` (ends a
coordination turn) or `act` (ends a decision turn). A turn has at most `turn_requests` answers; the
last one may only end the turn. Before a turn, a conversation past its token budget is compacted:
summarised by the same model, else cut to a window. Every turn, summary and window is a row of
sessions.jsonl, so a run's records hold each agent's conversation, notebook and tool calls; a
phase's rows are written once the phase is over, in the order of its requests (a resumed run,
answered from the cache at once, writes them in the same order as the run it resumes).

An answer longer than ANSWER_CHARS never enters the conversation: the turn ends there (a
decision turn as a policy_error) and the conversation holds a line saying so instead, so a
runaway or hostile model cannot grow every later prompt.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from mam_bench.answers import first_json
from mam_bench.prompts import json_object
from mam_bench.protocol import Decision, Request
from mam_bench.steering.llm.agent_view import AgentView
from mam_bench.steering.llm.recorder import wire

NOTE_CHARS = 300  # characters of one notebook line
WINDOW = 8  # messages a window keeps after the system message
SUMMARY_CHARS = 800
RESULT_KEEP = 300  # characters of a tool's result kept in a row
#: characters of one answer a conversation takes: a board post (at most 4,000) as JSON, with room
ANSWER_CHARS = 8000
#: the tool that ends a turn of each kind
ENDS = {"coordination": "post", "decision": "act", "one_call": "act", "idle": "done"}

RULES = """
You keep this conversation over the whole run. Each answer is one tool call, a JSON object whose "tool" is:
read_board (shows the coordination board), note (with "text": one line for your private notebook, which you see \
every turn and nobody else does), post (with "text": your board post; ends a coordination turn), act (your action, \
as the turn asks; ends a decision turn). At most {n} answers a turn."""


def tool(name: str, **props: Any) -> dict[str, Any]:
    return json_object({"tool": {"const": name}, **props}, ["tool", *props])


class Session:
    """One agent's conversation and notebook."""

    def __init__(self, system: str, notebook_chars: int):
        self.messages: list[BaseMessage] = [SystemMessage(content=system)]
        self.notebook: list[str] = []
        self.notebook_chars = notebook_chars

    def note(self, text: str) -> str:
        self.notebook.append(" ".join(str(text).split())[:NOTE_CHARS])
        while len(self.notebook) > 1 and sum(len(n) + 1 for n in self.notebook) > self.notebook_chars:
            self.notebook.pop(0)  # the oldest line goes first
        return f"noted ({len(self.notebook)} lines in your notebook)"

    def tokens(self, count: Any = None) -> int:
        """The conversation's tokens: by the model's own tokenizer where it is local (`count`),
        else at 4 characters a token (which undercounts gemma's tokens on a board map 1.6-1.9x)."""
        if count is not None:
            return sum(count(str(m.content)) for m in self.messages)
        return sum(len(str(m.content)) for m in self.messages) // 4


class SessionAgents:
    """The session turns of one LLM controller, through what it lets its agents use (`view`)."""

    def __init__(self, view: AgentView):
        self.view = view
        self.sessions: dict[int, Session] = {}
        #: rows of the phase under way, per agent, until `flush` writes them in request order
        self._rows: dict[int, list[dict[str, Any]]] = {}
        self._count: Any = None
        self._counted = False

    async def turn(self, req: Request, phase: str) -> Any:
        """A coordination turn's post (or None), else the turn's Decision; an `idle` turn (the world
        says the agent cannot act) only reads and notes, and returns None."""
        view, o = self.view, self.view.options
        s = self.sessions.get(req.actor_id)
        if s is None:
            system = view.prompts.system(req) + RULES.format(n=o.turn_requests)
            s = self.sessions[req.actor_id] = Session(system, o.notebook_chars)
        await self._compact(s, req, phase)
        start = len(s.messages)
        s.messages.append(HumanMessage(content=self._turn_text(s, req, phase)))
        tools: list[dict[str, Any]] = []
        acts = phase not in ("coordination", "idle")
        outcome: Any = Decision.policy_error("the turn ended without an action") if acts else None
        for i in range(o.turn_requests):
            schema = self._schema(req, phase, final=i == o.turn_requests - 1)
            text, error = await view.ask(req, phase, list(s.messages), i, schema)
            if error:
                outcome = Decision.policy_error(f"transport: {error}") if acts else None
                break
            if len(text) > ANSWER_CHARS:
                refused = f"policy_error: answer refused, longer than {ANSWER_CHARS} characters"
                s.messages.append(AIMessage(content=f"({refused}; it is not kept)"))
                tools.append({"answer": view.scrub(text)[:RESULT_KEEP], "result": refused})
                outcome = Decision.policy_error(refused.removeprefix("policy_error: ")) if acts else None
                break
            s.messages.append(AIMessage(content=text))
            result, ended = self._use(s, req, phase, text)
            tools.append({"answer": view.scrub(text)[:RESULT_KEEP], "result": view.scrub(str(result))[:RESULT_KEEP]})
            if ended is not None:
                outcome = ended if acts or phase == "coordination" else None
                break
            s.messages.append(HumanMessage(content=str(result)))
        if isinstance(outcome, Decision) and outcome.error:
            view.totals.policy_errors += 1
        self._record(req, phase, "turn", messages=wire(s.messages[start:]), tools=tools, notebook=list(s.notebook))
        return outcome

    # --- one answer ------------------------------------------------------------------------------
    def _use(self, s: Session, req: Request, phase: str, text: str) -> tuple[str, Any]:
        """What a tool call gives back, and the turn's outcome if it ends the turn (else None)."""
        obj = first_json(text)
        name = obj.get("tool") if isinstance(obj, dict) else None
        if name == "read_board":
            return self.view.prompts.board_text(req), None
        if name == "note" and isinstance(obj.get("text"), str):
            return s.note(self.view.scrub(obj["text"])), None
        if name == "done" and phase == "idle":
            return "done", True
        if name == "post" and phase == "coordination":
            return "posted", self.view.prompts.clean_post(self.view.scrub(str(obj.get("text") or "")))
        if name == "act" and phase in ("decision", "one_call"):
            payload = {k: v for k, v in obj.items() if k != "tool"}
            inner = payload.get("action")
            parsed = self.view.prompts.parse(json.dumps(inner if isinstance(inner, dict) else payload), req, phase)
            if parsed.error:
                self.view.totals.repairs += 1
                return f"error: {parsed.error}; answer again", None
            message = parsed.message or (payload.get("message") if isinstance(payload.get("message"), str) else None)
            message = self.view.scrub(message)[: self.view.options.message_cap] if message else None
            return "accepted", Decision(action=parsed.action, message=message, raw=self.view.scrub(text)[:2000])
        ends = ENDS.get(phase, "act")
        return (
            f'error: not a tool call of this turn; answer one JSON object, "tool" one of read_board, note, {ends}',
            None,
        )

    def _schema(self, req: Request, phase: str, final: bool) -> dict[str, Any] | None:
        view = self.view
        if view.options.structured == "none":
            return None
        if phase == "idle":
            end = tool("done")
        elif phase == "coordination":
            end = tool("post", text={"type": "string", "maxLength": view.options.post_chars})
        else:
            answer = view.prompts.answer_schema(phase, req)
            if view.prompts.menu(req):  # {"choice": N[, "message"]}: the act carries its fields
                end = json_object({"tool": {"const": "act"}, **answer["properties"]}, ["tool", *answer["required"]])
            elif phase == "one_call":  # {"action": ..., "message": ...}
                end = json_object({"tool": {"const": "act"}, **answer["properties"]}, ["tool", "action", "message"])
            else:
                end = tool("act", action=answer)
        if final:
            return end
        note = tool("note", text={"type": "string", "maxLength": NOTE_CHARS})
        return {"oneOf": [tool("read_board"), note, end]}

    def _turn_text(self, s: Session, req: Request, phase: str) -> str:
        notebook = "\n".join(f"- {line}" for line in s.notebook) or "(empty)"
        p = self.view.prompts
        if phase == "idle":
            return (
                f"{p.observation_text(req)}\nboard:\n{p.board_text(req)}\nYou cannot act in round {req.round}: "
                f'read the board or write in your notebook, then answer {{"tool": "done"}}.\nYour notebook:\n{notebook}'
            )
        return f"{p.user(req, phase)}\nYour notebook:\n{notebook}"

    # --- compaction --------------------------------------------------------------------------------
    def _counter(self) -> Any:
        """The local model's tokenizer (None: any other model, or one that cannot count)."""
        count = self.view.count_tokens
        if count is None:
            return None
        try:
            count("probe")
        except Exception:  # noqa: BLE001 - a model that cannot load its tokenizer counts by characters
            return None
        return count

    async def _compact(self, s: Session, req: Request, phase: str) -> None:
        budget = self.view.options.session_tokens
        if not self._counted:
            self._count, self._counted = self._counter(), True
        if s.tokens(self._count) <= budget:
            return
        ask = HumanMessage(
            content=f"Your conversation is too long. Summarise what you need to go on (your plans, what "
            f"happened, what the others said) in at most {SUMMARY_CHARS} characters, as JSON with key summary."
        )
        schema = json_object({"summary": {"type": "string", "maxLength": SUMMARY_CHARS}}, ["summary"])
        schema = schema if self.view.options.structured != "none" else None
        text, error = await self.view.ask(req, "summary", [*s.messages, ask], 0, schema)
        obj = first_json(text) if text else None
        summary = obj.get("summary") if isinstance(obj, dict) else None
        dropped = len(s.messages) - 1
        if isinstance(summary, str) and summary.strip():
            summary = self.view.scrub(summary)[:SUMMARY_CHARS]
            s.messages = [s.messages[0], HumanMessage(content=f"Summary of your earlier rounds: {summary}")]
            self._record(req, phase, "summary", dropped=dropped, summary=summary)
            return
        s.messages = [s.messages[0], *s.messages[-WINDOW:]]
        while len(s.messages) > 1 and not isinstance(s.messages[1], HumanMessage):
            s.messages.pop(1)  # a window starts with what the agent was told, not with its answer
        self._record(req, phase, "window", dropped=dropped - (len(s.messages) - 1), error=error)

    def _record(self, req: Request, phase: str, kind: str, **row: Any) -> None:
        row = {"round": req.round, "phase": phase, "actor_id": req.actor_id, "kind": kind, **row}
        self._rows.setdefault(req.actor_id, []).append(row)

    def flush(self, requests: Any) -> None:
        """The phase's rows into sessions.jsonl, agent by agent in the order of `requests`."""
        rows, self._rows = self._rows, {}
        records = self.view.records()
        if records is None:
            return
        for req in requests:
            for row in rows.pop(req.actor_id, []):
                records.append("sessions.jsonl", row)
        for left in rows.values():  # (an agent not among the requests: none today)
            for row in left:
                records.append("sessions.jsonl", row)
