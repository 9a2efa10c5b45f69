"""What produced a result: code and dependency versions, the git commit, the world's source and
data files, the controller's and heuristic's sources, the model the provider answered with. A
number without these cannot be reproduced or trusted when two runs disagree."""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import platform
import subprocess
import sysconfig
from collections.abc import Iterable
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

#: the fields that must agree for two pairs to be pooled in one experiment
COMPARED = (
    "package",
    "git_commit",
    "git_dirty",
    "python",
    "mesa",
    "numpy",
    "scipy",
    "pandas",
    "pyarrow",
    "numba",
    "langchain_core",
    "world_data",
)
#: dependencies whose version can move a number (statistics, tables, kernels, LLM plumbing)
VERSIONED = ("mesa", "numpy", "scipy", "pandas", "pyarrow", "numba", "langchain_core", "langchain")
#: files in a world's folder that are neither its code nor its data
NOT_HASHED = (".pyc", ".pyo", ".md")


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def git_state(folder: Path) -> dict[str, Any]:
    """The checkout `folder` lies in: its commit, and whether anything differs from it (an untracked
    file too: a new module or data file changes what runs); outside a checkout both are None."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=normal"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {"git_commit": None, "git_dirty": None}
    return {"git_commit": commit or None, "git_dirty": bool(status.strip())}


@lru_cache(maxsize=1)
def _git() -> dict[str, Any]:
    """The checkout the package was imported from (once per process)."""
    return git_state(Path(__file__).resolve().parent)


def files_hash(files: Iterable[Path], root: Path | None = None) -> str:
    """sha256 over files by (relative) path and content, in path order."""
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        name = str(path.relative_to(root)) if root is not None else path.name
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _package_of(module: str) -> str:
    """A module's package (a package is its own); a top-level module stands for itself."""
    spec = importlib.util.find_spec(module)
    if spec is not None and spec.submodule_search_locations is not None:
        return module
    return module.rpartition(".")[0] or module


def _common_package(modules: list[str]) -> str:
    parts = [m.split(".") for m in modules]
    common: list[str] = []
    for names in zip(*parts):
        if len(set(names)) > 1:
            break
        common.append(names[0])
    return ".".join(common)


def world_files(world_cls: Any) -> tuple[Path, list[Path]]:
    """The world's folder and every source and data file in it. The folder is the package that
    holds the world and its registered parts (heuristic, prompts, renderer): the swarm tasks share
    one engine, so each is identified by all of it."""
    from mam_bench.registry import registrations

    packages = [_package_of(world_cls.__module__)]
    reg = registrations().get(getattr(world_cls, "name", ""))
    if reg is not None and reg.world.partition(":")[0] == world_cls.__module__:
        parts = (reg.heuristic, reg.prompts, reg.renderer, reg.landscape_kernel)
        packages += [_package_of(p.partition(":")[0]) for p in parts if p]
    common = _common_package(packages) or packages[0]
    spec = importlib.util.find_spec(common)
    if spec is None or not spec.submodule_search_locations:  # a world in a single-file module
        source = Path(inspect.getsourcefile(world_cls) or "")
        return source.parent, [source] if source.is_file() else []
    folder = Path(next(iter(spec.submodule_search_locations))).resolve()
    files = [
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix not in NOT_HASHED
        and "__pycache__" not in p.parts
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    ]
    return folder, files


def world_data_hash(world_cls: Any) -> str:
    """sha256 over the world's source and data files (see `world_files`), by relative path and content."""
    folder, files = world_files(world_cls)
    return files_hash(files, folder)


def _stdlib(path: str) -> bool:
    return Path(path).resolve().is_relative_to(Path(sysconfig.get_paths()["stdlib"]).resolve())


def classes_source_hash(cls: type) -> str | None:
    """sha256 over the source files of a class and its bases (the standard library's left out)."""
    files = set()
    for base in cls.__mro__:
        try:
            path = inspect.getsourcefile(base)
        except TypeError:  # a built-in
            continue
        if path and not _stdlib(path):
            files.add(Path(path).resolve())
    return files_hash(files) if files else None


def heuristic_source_hash(world_cls: Any) -> str | None:
    """sha256 of the world's registered heuristic module (None when it registers none)."""
    from mam_bench.registry import registrations

    reg = registrations().get(getattr(world_cls, "name", ""))
    if reg is None or not reg.heuristic:
        return None
    spec = importlib.util.find_spec(reg.heuristic.partition(":")[0])
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        return None
    return files_hash([Path(spec.origin)])


def environment() -> dict[str, Any]:
    """Code and dependency versions (the same for every pair this process runs)."""
    return {
        "package": _version("mam-bench") or _version("mam_bench"),
        **_git(),
        "python": platform.python_version(),
        **{name: _version(name.replace("_", "-")) for name in VERSIONED},
    }


def provenance(world_cls: Any, controller: Any = None) -> dict[str, Any]:
    """The provenance block of result.json."""
    return {
        **environment(),
        "world_data": world_data_hash(world_cls),
        "controller_source": classes_source_hash(type(controller)) if controller is not None else None,
        "heuristic_source": heuristic_source_hash(world_cls),
        "provider_models": sorted(controller.provider_models()) if controller is not None else [],
    }


def compared(block: dict[str, Any]) -> dict[str, Any]:
    """The part of a provenance block two pooled pairs must share."""
    return {k: block.get(k) for k in COMPARED}


def provenance_id(block: dict[str, Any]) -> str:
    """A short id of the compared part, stored on every table row."""
    body = "|".join(f"{k}={block.get(k)}" for k in COMPARED)
    return hashlib.sha256(body.encode()).hexdigest()[:12]
