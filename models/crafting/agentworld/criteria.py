"""Runs in a verifier's child process (mam_bench.user_code): imports one AgentWorld success-criteria
file with `verifier_utils` importable (the copy beside the file first, else ours) and calls its
`verify(trajectory)`, answering what it returns (the parent checks its shape)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

_verify: dict[str, Any] = {}


def verify(call: dict[str, Any]) -> Any:
    path = call["criteria"]
    if path not in _verify:
        sys.path.insert(0, str(Path(path).parent))  # the task's own verifier_utils wins over ours
        spec = importlib.util.spec_from_file_location(f"criteria_{len(_verify)}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _verify[path] = module.verify
    return _verify[path](call["trajectory"])
