"""Which values are secrets: keys come only from environment variables, and every value that
looks like one is scrubbed from records, caches, logs and errors (the core's job, LLM or not)."""

from __future__ import annotations

import os
import re

#: what an environment variable's name looks like; anything else might be a key pasted by mistake
ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]{0,63}")
#: variables whose values are scrubbed from every record even when not named by --api-key-env
SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_KEY")


def secrets_in_env(extra: str | None = None) -> tuple[str, ...]:
    """Every value that must never reach a record: the run's key and any key-like variable."""
    found = {v for k, v in os.environ.items() if k.upper().endswith(SECRET_SUFFIXES) and len(v) >= 8}
    if extra:
        found.add(extra)
    return tuple(sorted(found, key=len, reverse=True))


#: keys this process was given by name (--api-key-env, a judge's key): scrubbed whatever their name
_remembered: set[str] = set()


def remember(value: str | None) -> None:
    """Add a key read from a variable of any name to what `known_secrets` scrubs."""
    if value:
        _remembered.add(value)


def known_secrets() -> tuple[str, ...]:
    """Every secret value this process knows: key-like variables and the keys it was given,
    longest first (a key that contains another is replaced whole)."""
    found = set(secrets_in_env()) | _remembered
    return tuple(sorted(found, key=len, reverse=True))
