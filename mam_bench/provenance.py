"""What produced a result: code and dependency versions, the git commit, the world's data files,
the model the provider answered with. A number without these cannot be reproduced or trusted
when two runs disagree."""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

#: the fields that must agree for two pairs to be pooled in one experiment
COMPARED = ("package", "git_commit", "git_dirty", "python", "mesa", "numpy", "langchain_core", "world_data")


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


@lru_cache(maxsize=1)
def _git() -> dict[str, Any]:
    """The checkout the package was imported from, if any; outside a checkout both are None."""
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {"git_commit": None, "git_dirty": None}
    return {"git_commit": commit or None, "git_dirty": bool(status.strip())}


def world_data_hash(world_cls: Any) -> str:
    """sha256 over the world package's data files (everything but Python sources and caches),
    by relative path and content; the hash of nothing when the world has no data files."""
    module = sys.modules.get(world_cls.__module__)
    digest = hashlib.sha256()
    folder = Path(module.__file__).resolve().parent if module is not None and module.__file__ else None
    if folder is not None:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def environment() -> dict[str, Any]:
    """Code and dependency versions (the same for every pair this process runs)."""
    return {
        "package": _version("mam-bench") or _version("mam_bench"),
        **_git(),
        "python": platform.python_version(),
        "mesa": _version("mesa"),
        "numpy": _version("numpy"),
        "langchain_core": _version("langchain-core"),
        "langchain": _version("langchain"),
    }


def provenance(world_cls: Any, controller: Any = None) -> dict[str, Any]:
    """The provenance block of result.json."""
    return {
        **environment(),
        "world_data": world_data_hash(world_cls),
        "provider_models": sorted(controller.provider_models()) if controller is not None else [],
    }


def compared(block: dict[str, Any]) -> dict[str, Any]:
    """The part of a provenance block two pooled pairs must share."""
    return {k: block.get(k) for k in COMPARED}


def provenance_id(block: dict[str, Any]) -> str:
    """A short id of the compared part, stored on every table row."""
    body = "|".join(f"{k}={block.get(k)}" for k in COMPARED)
    return hashlib.sha256(body.encode()).hexdigest()[:12]
