"""Runs in a verifier's child process (mam_bench.user_code): imports one AgentWorld success-criteria
file with `verifier_utils` importable (the copy beside the file first, else ours) and calls its
`verify(trajectory)`, answering what it returns (the parent checks its shape)."""

from __future__ import annotations

from typing import Any

from mam_bench.user_code import import_file

_verify: dict[str, Any] = {}


def verify(call: dict[str, Any]) -> Any:
    path = call["criteria"]
    if path not in _verify:
        # the task's folder goes first on the path, so its own verifier_utils wins over ours
        _verify[path] = import_file(path, f"criteria_{len(_verify)}").verify
    return _verify[path](call["trajectory"])
