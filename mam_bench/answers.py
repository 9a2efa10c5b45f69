"""From a model's text to an action: JSON in text first, then world-specific forms.

Models wrap JSON in prose or code fences, truncate it, or answer in the board's own shorthand
(`ID -> r,c`). A raw newline or tab inside a string is read as itself (JSON's non-strict mode): a
small model under a grammar writes them into its message, and the answer is otherwise whole.
Nothing here raises on hostile input: every function returns a value or None.
"""

from __future__ import annotations

import json
from typing import Any

#: answers longer than this are rejected unparsed (a runaway model, or an attack on the parser)
MAX_ANSWER_CHARS = 20_000


def json_objects(text: str, limit: int = 8) -> list[Any]:
    """Balanced {...} blocks of `text` that decode as JSON, outermost first, at most `limit`."""
    found: list[Any] = []
    if not isinstance(text, str):
        return found
    decoder = json.JSONDecoder(strict=False)
    i = text.find("{")
    tries = 0
    while i != -1 and len(found) < limit and tries < 64:
        tries += 1
        try:
            obj, end = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            i = text.find("{", i + 1)
            continue
        found.append(obj)
        i = text.find("{", end)
    return found


def first_json(text: str) -> Any | None:
    """The whole text as JSON if it is JSON, else the first JSON object inside it."""
    if not isinstance(text, str):
        return None
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.strip("`")
        stripped = stripped[4:] if stripped.lower().startswith("json") else stripped
    try:
        return json.loads(stripped, strict=False)
    except (ValueError, RecursionError):
        pass
    objs = json_objects(text, limit=1)
    return objs[0] if objs else None


def unwrap_action(obj: Any, keys: tuple[str, ...] = ("action", "move", "decision")) -> tuple[Any, str | None]:
    """Accept {"action": {...}, "message": "..."} as well as a bare action object."""
    if isinstance(obj, dict):
        message = obj.get("message") if isinstance(obj.get("message"), str) else None
        for k in keys:
            if k in obj and isinstance(obj[k], dict):
                return obj[k], message
        if "message" in obj and len(obj) > 1:
            rest = {k: v for k, v in obj.items() if k != "message"}
            return rest, message
    return obj, None
