"""Reads a SwarmBench-style answer ('ACTION: UP' / 'MSG: hello') into an action dict."""

from __future__ import annotations

import re

from mam_bench.models.swarm.messages import clip_message

_ACTION = re.compile(r"ACTION\s*:\s*(.*)", re.I)
_MSG = re.compile(r"MSG\s*:\s*(.*)", re.I)
_WORD = re.compile(r"[A-Za-z]+")


class AnswerError(ValueError):
    """The answer names no valid action and no message."""


def parse_answer(text: str, allowed: tuple[str, ...]) -> dict:
    """The first valid action name after an `ACTION:` (STAY when only a message is given).

    Returns {"action": NAME, "message": str | None}; raises AnswerError when the text has
    neither a valid action nor a message, so an LLM layer can ask for a repair.
    """
    text = text or ""
    action = None
    for m in _ACTION.finditer(text):
        for word in _WORD.findall(m.group(1)):
            if word.upper() in allowed:
                action = word.upper()
                break
        if action:
            break
    message = None
    for m in _MSG.finditer(text):
        body = m.group(1).strip()
        if body.startswith("[") and body.endswith("]"):
            body = body[1:-1].strip()
        if len(body) >= 2 and body[0] == body[-1] and body[0] in "\"'":
            body = body[1:-1]
        message = clip_message(body)
        if message:
            break
    if action is None and message is None:
        raise AnswerError(f"no ACTION: with one of {', '.join(allowed)} and no MSG: found")
    return {"action": action or "STAY", "message": message}


def upstream_answer(text: str, allowed: tuple[str, ...]) -> dict:
    """Upstream's `SwarmAgent.to_action` (@ c164678), for reproduction runs; never raises.

    For each of "ACTION:", "Action:", "action:" present (a later one overrides), the rest of that
    line is searched for the action names by substring, case-sensitive, in the action list's
    order; likewise "MSG:"/"Msg:"/"msg:" give the message, cut at 120 chars plus "...". No
    action means STAY.
    """
    text = text or ""
    action = None
    for tag in ("ACTION:", "Action:", "action:"):
        if tag in text:
            part = text.split(tag, 1)[1].split("\n", 1)[0].strip()
            for name in allowed:
                if name in part:
                    action = name
                    break
    message = None
    for tag in ("MSG:", "Msg:", "msg:"):
        if tag in text:
            message = text.split(tag, 1)[1].split("\n", 1)[0].strip()
            if len(message) > 120:
                message = message[:120] + "..."
    return {"action": action or "STAY", "message": message or None}
