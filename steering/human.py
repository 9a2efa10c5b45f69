"""A person plays the influence agents: `decide` waits for the choices made in the dashboard.

Each round the controller holds the round's requests (`turn`) until the page has an action for
every one of them; the page shows what an LLM would be given (the prompt's observation and board)
and offers only what the world accepts: a choice the world refuses comes back with its reason and
is not taken. A per-round time limit turns the missing choices into the world's null action.

Every finished round is appended to `human.jsonl` in the run's folder (actions, posts, seconds per
decision), so a session stopped halfway resumes where it stopped: the recorded rounds are answered
from the file at once. The same rows, given as `played`, replay the session when the runner writes
the run's records (`mam_bench.dashboards.human_session`).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mam_bench.capabilities import null_action
from mam_bench.controller import Controller
from mam_bench.errors import ConfigError
from mam_bench.prompts import prompts_for
from mam_bench.protocol import Decision, Request

#: the session's own record in the run's folder: one line per finished round
LOG = "human.jsonl"


@dataclass
class Turn:
    """What the page asks of the person now: one action (and, with a board, a post) per request."""

    round: int
    requests: list[Request]
    want_action: bool
    want_post: bool
    started: float = field(default_factory=time.monotonic)
    actions: dict[int, dict[str, Any]] = field(default_factory=dict)
    posts: dict[int, str] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)
    how: dict[int, str] = field(default_factory=dict)
    #: the last refusal per actor, shown on the page until the next choice
    refused: dict[int, str] = field(default_factory=dict)

    @property
    def ids(self) -> list[int]:
        return [r.actor_id for r in self.requests]

    def request(self, actor_id: int) -> Request:
        return next(r for r in self.requests if r.actor_id == actor_id)

    @property
    def complete(self) -> bool:
        return not self.want_action or all(a in self.actions for a in self.ids)


class HumanController(Controller):
    """`decide` and `post` wait for the page (`choose`, `write`, `send`); see the module doc."""

    name = "human"
    posts = True

    def __init__(
        self,
        world_cls: Any,
        objective: str = "",
        time_limit: float | None = None,
        log: str | None = None,
        played: Sequence[dict[str, Any]] | None = None,
        **_: Any,
    ):
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ConfigError("time_limit", f"expected a positive number of seconds, got {time_limit!r}")
        if log is None and played is None:
            raise ConfigError(
                "controller", "human plays in the dashboard: mam-bench dashboard WORLD --controller human [--out DIR]"
            )
        self.world_cls = world_cls
        self.prompts = prompts_for(world_cls, objective)
        self.time_limit = float(time_limit) if time_limit else None
        self.log = Path(log) if log else None
        #: (round, actor) -> the recorded choice; a resumed or replayed round is answered from here
        self.played: dict[tuple[int, int], dict[str, Any]] = {}
        for row in played if played is not None else read_log(self.log):
            self.played[(int(row["round"]), int(row["actor_id"]))] = row
        #: True when every decision must come from `played` (writing the records): nothing waits
        self.offline = played is not None
        #: the page sets this: per-turn worlds ask each action at its own turn, posts first
        self.per_turn = False
        self.turn: Turn | None = None
        self.on_turn: Callable[[], None] | None = None  # the page redraws when a turn opens
        self._lock = threading.Lock()
        self._wake: tuple[asyncio.AbstractEventLoop, asyncio.Future] | None = None
        self._last: dict[int, dict[str, Any]] = {}
        self._closed = False

    # --- the controller interface -------------------------------------------------------------
    async def post(self, requests: Sequence[Request]) -> list[str | None]:
        done = await self._answers(requests, want_action=not self.per_turn, want_post=True)
        return [done[r.actor_id].get("post") for r in requests]

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        done = await self._answers(requests, want_action=True, want_post=False)
        return [Decision(action=dict(done[r.actor_id]["action"])) for r in requests]

    async def _answers(self, requests: Sequence[Request], want_action: bool, want_post: bool) -> dict[int, dict]:
        """The choice of each request: recorded already, else asked of the person (and logged)."""
        keys = [(r.round, r.actor_id) for r in requests]
        have = [self.played.get(k) for k in keys]
        if all(h is not None and (not want_action or h.get("action") is not None) for h in have):
            for r, h in zip(requests, have):
                self._last[r.actor_id] = h["action"]
            return {r.actor_id: h for r, h in zip(requests, have)}  # type: ignore[misc]
        if self.offline:
            missing = next(k for k, h in zip(keys, have) if h is None or h.get("action") is None)
            raise ConfigError("human", f"no recorded choice for round {missing[0]}, actor {missing[1]}")
        turn = Turn(requests[0].round, list(requests), want_action, want_post)
        for r, h in zip(requests, have):  # a post given before a per-turn action is kept
            if h is not None and h.get("post"):
                turn.posts[r.actor_id] = h["post"]
        loop = asyncio.get_running_loop()
        wake = loop.create_future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the session was closed")
            self.turn, self._wake = turn, (loop, wake)
        if self.on_turn is not None:
            self.on_turn()
        try:
            await asyncio.wait_for(asyncio.shield(wake), self.time_limit) if self.time_limit else await wake
        except TimeoutError:
            with self._lock:
                for aid in turn.ids:
                    if want_action and aid not in turn.actions:
                        turn.actions[aid], turn.how[aid] = null_action(self.world_cls.Action), "time limit"
                        turn.seconds[aid] = round(time.monotonic() - turn.started, 3)
        with self._lock:
            self.turn, self._wake = None, None
        if self._closed:
            raise RuntimeError("the session was closed before the round was chosen")
        rows = {}
        for r in requests:
            aid = r.actor_id
            before = self.played.get((r.round, aid), {})
            row = {
                "round": r.round,
                "actor_id": aid,
                "action": turn.actions.get(aid, before.get("action")),
                "post": turn.posts.get(aid) or before.get("post"),
                "seconds": turn.seconds.get(aid, before.get("seconds")),
                "how": turn.how.get(aid, before.get("how")),
            }
            self.played[(r.round, aid)] = rows[aid] = row
            if row["action"] is not None:
                self._last[aid] = row["action"]
        if turn.want_action:
            self._append([rows[r.actor_id] for r in requests])
        return rows

    def _append(self, rows: list[dict[str, Any]]) -> None:
        if self.log is None:
            return
        with open(self.log, "a", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, sort_keys=True) + "\n")

    # --- what the page calls (from its own thread) --------------------------------------------
    def legal(self, actor_id: int) -> list[dict[str, Any]] | None:
        """The agent's legal actions this turn, the null action first (None: the world lists none)."""
        turn = self.turn
        if turn is None:
            return None
        req = turn.request(actor_id)
        listed = self.prompts.legal_actions(req)
        menu = getattr(req.observation, "legal_menu", None)  # a world that lists them for a person only
        return listed if listed is not None or not callable(menu) else menu()

    def choose(self, actor_id: int, action: dict[str, Any], how: str = "pick") -> str | None:
        """Take an action for one agent; returns why the world refuses it (then nothing is taken)."""
        with self._lock:
            turn = self.turn
            if turn is None or actor_id not in turn.ids or not turn.want_action:
                return "not your turn to act"
            req = turn.request(actor_id)
            problem = self.prompts.legal_error(dict(action), req)
            legal = self.prompts.legal_actions(req)
            if problem is None and legal is not None and _bare(action) not in [_bare(a) for a in legal]:
                problem = "not one of this round's legal actions"
            if problem:
                turn.refused[actor_id] = problem
                return problem
            turn.refused.pop(actor_id, None)
            turn.actions[actor_id] = dict(action)
            turn.how[actor_id] = how
            turn.seconds[actor_id] = round(time.monotonic() - turn.started, 3)
            self._maybe_end(turn)
        return None

    def same_as_last(self, actor_id: int) -> str | None:
        last = self._last.get(actor_id)
        if last is None:
            return "no earlier action to repeat"
        return self.choose(actor_id, last, how="same")

    def stay(self, actor_id: int) -> str | None:
        return self.choose(actor_id, null_action(self.world_cls.Action), how="stay")

    def write(self, actor_id: int, text: str) -> None:
        """The agent's board post for this round (empty: none)."""
        with self._lock:
            if self.turn is not None and self.turn.want_post:
                self.turn.posts[actor_id] = text.strip()

    def send(self) -> None:
        """End a posts-only turn (per-turn worlds write their posts before anyone acts)."""
        with self._lock:
            if self.turn is not None and not self.turn.want_action:
                self._wake_up()

    @property
    def closed(self) -> bool:
        return self._closed

    def abandon(self) -> None:
        """The page is gone: a waiting round ends unplayed (its thread must not wait forever)."""
        with self._lock:
            self._closed = True
            self._wake_up()

    def _maybe_end(self, turn: Turn) -> None:
        if turn.complete:
            self._wake_up()

    def _wake_up(self) -> None:
        if self._wake is not None:
            loop, fut = self._wake
            loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(None))

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "time_limit": self.time_limit}


def _bare(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "message" and v is not None}


def read_log(path: Path | None) -> list[dict[str, Any]]:
    """The rounds a stopped session finished (a line cut short by a crash ends the log)."""
    if path is None or not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            break
        if not (isinstance(row, dict) and isinstance(row.get("round"), int) and isinstance(row.get("actor_id"), int)):
            raise ConfigError("human", f"{path} holds a line that is not a recorded choice")
        rows.append(row)
    return rows


def make_human_controller(world_cls: Any, objective: str = "", **options: Any) -> HumanController:
    return HumanController(world_cls, objective, **options)
