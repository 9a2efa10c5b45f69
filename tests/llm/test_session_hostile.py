"""Session agents against a hostile server: lone surrogates (as characters and as JSON escapes),
a 5 MB note and a 150,000-character answer. No traceback; no request grows past a bound; the
long answers are refused as policy errors; and a run killed mid-way then resumed writes the same
records, byte for byte, as the uninterrupted run, with every request answered once in all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from mam_bench.records import read_jsonl
from mam_bench.steering.llm.session import ANSWER_CHARS
from tests.llm.conftest import KEY, KEY_ENV
from tests.llm.test_session import turn_of
from tests.support.caches import wait_until_committed
from tests.support.cli import REPO
from tests.support.openai_server import OpenAIServer

#: records a resumed run must write exactly as the uninterrupted one
SAME = ("sessions.jsonl", "decisions.jsonl", "board.jsonl", "treatment.jsonl", "reference.jsonl", "result.json")
#: the columns of a call's row that say how this process got its answer (cache or provider, time)
PER_PROCESS = ("cached", "latency_s", "queue_s", "service_s")
#: characters a request may carry: the standing prompt, a budget's worth of conversation and one
#: turn of answers no longer than a session keeps (a 5 MB answer once made 35 MB prompts)
REQUEST_BOUND = 60_000


def actor_of(body: dict[str, Any]) -> int:
    import re

    found = re.findall(r"you (\d+) group", json.dumps(body["messages"]))
    return int(found[-1]) if found else -1


def hostile(body: dict[str, Any]) -> str:
    """The same answer for the same request, whatever the order of calls."""
    last = body["messages"][-1]["content"]
    if "Summarise what you need" in last:
        return json.dumps({"summary": "keep staying \ud800 and watch"})  # an escaped lone surrogate
    phase, rnd, opening = turn_of(body)
    first = actor_of(body) == 0
    if phase == "Coordination":
        if rnd == 1:
            return json.dumps({"tool": "post", "text": "hold \ud800 the seam"})
        return '{"tool": "post", "text": "I hold \ud800"}'  # a raw one: JSON on the wire escapes it
    if opening and rnd == 0:
        return '{"tool": "note", "text": "plan \udc00 A"}' if first else json.dumps({"tool": "note", "text": "\udfff"})
    if opening and rnd == 1:
        if first:
            return json.dumps({"tool": "note", "text": "n" * 5_000_000})
        return json.dumps({"tool": "act", "action": {"stay": True}}) + " " * 150_000
    if opening and rnd == 2 and not first:
        return json.dumps({"tool": "note", "text": "m" * 5_000_000})
    return json.dumps({"tool": "act", "action": {"stay": True}})


class Answered:
    """The server's reply function, noting each request it answers (as canonical JSON)."""

    def __init__(self) -> None:
        self.bodies: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> str:
        with self._lock:
            self.bodies.append(json.dumps(body, sort_keys=True))
        return hostile(body)


def argv(base_url: str, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "mam_bench",
        "run",
        "schelling",
        "--seed",
        "22",
        "--rounds",
        "4",
        "--influence",
        "2",
        "--policy",
        "llm",
        "--model",
        "openai:hostile",
        "--base-url",
        base_url,
        "--api-key-env",
        KEY_ENV,
        "--option",
        "agent=session",
        "--option",
        "context_tokens=2000",
        "--max-policy-errors",  # the refused answers are 3 of 8 decisions: the run stays valid
        "0.5",
        "--out",
        str(out),
    ]


def calls_without_luck(out: Path) -> list[str]:
    rows = [{k: v for k, v in r.items() if k not in PER_PROCESS} for r in read_jsonl(out / "llm_calls.jsonl")]
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


def test_hostile_answers_are_bounded_and_a_killed_session_resumes_byte_identical(tmp_path: Path) -> None:
    env = {**os.environ, KEY_ENV: KEY}
    full, killed = tmp_path / "full", tmp_path / "killed"
    answered = Answered()
    with OpenAIServer(reply=answered) as srv:
        done = subprocess.run(argv(srv.base_url, full), env=env, cwd=REPO, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-3000:]
        assert "Traceback" not in done.stderr
        uninterrupted = sorted(answered.bodies)
        sizes = [sum(len(m["content"]) for m in json.loads(b)["messages"]) for b in uninterrupted]
        assert max(sizes) < REQUEST_BOUND, max(sizes)

        # the same run, held after 60% of its answers and killed, then resumed
        answered.bodies.clear()
        srv.answered = srv.received = 0
        srv.hold_after = int(len(uninterrupted) * 0.6)
        proc = subprocess.Popen(
            argv(srv.base_url, killed), env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 300
        while srv.held == 0 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert srv.held > 0, "the run never reached the hold point"
        wait_until_committed(killed, lambda: srv.answered)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert not (killed / "result.json").exists()
        srv.hold_after = None
        srv.release.set()
        resumed = subprocess.run(
            [sys.executable, "-m", "mam_bench", "run", "--resume", str(killed)],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        assert "Traceback" not in resumed.stderr

    # every request of the uninterrupted run was answered once in all, none twice
    assert sorted(answered.bodies) == uninterrupted
    assert Counter(answered.bodies).most_common(1)[0][1] == 1
    for name in SAME:
        assert (killed / name).read_bytes() == (full / name).read_bytes(), name
    assert calls_without_luck(killed) == calls_without_luck(full)

    # what the records say of the hostile answers
    rows = read_jsonl(full / "sessions.jsonl")
    text = (full / "sessions.jsonl").read_text(encoding="utf-8")
    assert "\ufffd" in text  # each surrogate became U+FFFD
    refused = [t for r in rows for t in r.get("tools", []) if t["result"].startswith("policy_error")]
    assert len(refused) == 3 and all(str(ANSWER_CHARS) in t["result"] for t in refused)
    assert all(len(m["content"]) <= ANSWER_CHARS for r in rows for m in r.get("messages", []))
    decisions = read_jsonl(full / "decisions.jsonl")
    assert sum(d["outcome"] == "policy_error" for d in decisions) == 3
    calls = read_jsonl(full / "llm_calls.jsonl")
    assert sorted(c["answer_chars"] for c in calls)[-3:] == sorted(
        [len(hostile_note(5_000_000)), len(hostile_note(5_000_000)), 150_000 + 41]
    )


def hostile_note(n: int) -> str:
    return json.dumps({"tool": "note", "text": "n" * n})
