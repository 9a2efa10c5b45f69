"""Guarding a run directory: never overwrite a run by accident, one writer at a time.

A run directory that already holds records is refused unless the user asks to `--force` (the
old run is moved aside to a sibling folder, never deleted) or to `--resume` it. The lock is an
advisory `flock` on a file inside the folder, released by the kernel when the process dies, so a
killed run never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO

from mam_bench.errors import ConfigError

LOCK_NAME = ".mam-bench.lock"
#: files whose presence means "this folder holds a run" (the LLM cache alone does not)
RUN_MARKERS = (
    "spec.json",
    "result.json",
    "reference.jsonl",
    "treatment.jsonl",
    "reference.snapshots",
    "treatment.snapshots",
    "decisions.jsonl",
    "board.jsonl",
    "llm_calls.jsonl",
)


#: files whose presence means "this folder holds an experiment" (`mam-bench experiment --out`)
EXPERIMENT_MARKERS = ("table.csv", "table.parquet", "summary.csv", "suite.json", "provenance.json", "pairs")


def holds_run(path: Path, markers: tuple[str, ...] = RUN_MARKERS) -> bool:
    return path.is_dir() and any((path / name).exists() for name in markers)


def holds_experiment(path: Path) -> bool:
    return holds_run(path, EXPERIMENT_MARKERS)


def refuse_other_kind(path: Path, wanted: str, field: str = "out") -> None:
    """A run folder is not an experiment folder and the reverse: writing one into the other mixes
    records that no reader can take apart again."""
    if wanted == "run" and holds_experiment(path):
        raise ConfigError(field, f"{path} holds an experiment (table.csv, pairs/); give a run its own folder")
    if wanted == "experiment" and holds_run(path):
        raise ConfigError(field, f"{path} holds a run (spec.json, result.json); give the experiment its own folder")


def non_empty(value: str | None, field: str) -> None:
    """`--out ""` would mean the current folder (or no file at all): refused, not guessed."""
    if value is not None and not str(value).strip():
        raise ConfigError(field, "must not be empty")


def claim_file(path: Path, force: bool, ours: Callable[[Path], bool], field: str = "out") -> Path | None:
    """Make `path` free for a file this command writes. An existing file the command wrote
    itself (`ours`) is replaced; any other is refused unless `force`, which moves it aside to
    `NAME.replaced-N` (returned). A folder, or a parent that cannot hold the file, is refused."""
    check_file_path(path, field)
    if not path.exists() and not path.is_symlink():
        return None
    if path.is_dir():
        raise ConfigError(field, f"{path} is a directory; give a file name")
    if not path.is_file():
        raise ConfigError(field, f"{path} is not a regular file (a device, pipe or broken link); give a file name")
    try:
        mine = path.is_file() and ours(path)
    except OSError:
        mine = False
    if mine:
        return None
    if not force:
        raise ConfigError(
            field,
            f"{path} already exists and was not written by this command; pass --force to move it "
            f"aside (to {path.name}.replaced-N) or choose another --{field.replace('_', '-')}",
        )
    target = aside_name(path)
    os.replace(path, target)
    return target


def begins_with(head: str) -> Callable[[Path], bool]:
    """The `ours` test of a page a command writes: the file starts with the command's own head."""

    def ours(path: Path) -> bool:
        with open(path, "rb") as fh:
            return fh.read(len(head.encode())) == head.encode()

    return ours


def check_file_path(path: Path, field: str = "out") -> None:
    """An output file's name and folder, checked before any work: not empty, not too long, a
    folder that exists (or can be made) and may be written."""
    non_empty(str(path), field)
    check_name_lengths(path, field)
    parent = path.parent if str(path.parent) else Path(".")
    check_out_dir(parent, field)


def check_name_lengths(path: Path, field: str = "out") -> None:
    """A name longer than the file system allows is a clear error, not an OSError mid-run."""
    limit = 255
    try:
        limit = os.pathconf(_existing_parent(path), "PC_NAME_MAX")
    except (OSError, ValueError):
        pass
    for part in path.parts:
        size = len(part.encode("utf-8", "surrogateescape"))
        if size > limit:
            raise ConfigError(field, f"the name {part[:40]}... is {size} bytes in UTF-8; at most {limit}")
    if len(str(path).encode("utf-8", "surrogateescape")) >= 4096:
        raise ConfigError(field, "the path is longer than 4096 bytes")


def _existing_parent(path: Path) -> Path:
    parent = path.absolute()
    while parent != parent.parent:
        try:
            if parent.exists():
                break
        except OSError:  # a name too long to look up
            pass
        parent = parent.parent
    return parent


def check_out_dir(path: Path, field: str = "out") -> None:
    """Reject, before anything is written, an --out that cannot become a folder."""
    non_empty(str(path), field)
    check_name_lengths(path, field)
    if path.exists() and not path.is_dir():
        raise ConfigError(field, f"{path} exists and is not a directory")
    parent = path.absolute()
    while not parent.exists() and parent != parent.parent:
        if parent.is_symlink():  # a dangling link: mkdir would fail on it
            raise ConfigError(field, f"{parent} is a broken symbolic link")
        parent = parent.parent
    if not parent.is_dir():
        raise ConfigError(field, f"{parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(field, f"cannot write to {parent}")


def aside_name(path: Path) -> Path:
    """The first free sibling `NAME.replaced-N`."""
    n = 1
    while True:
        candidate = path.with_name(f"{path.name}.replaced-{n}")
        if not candidate.exists():
            return candidate
        n += 1


def move_aside(path: Path) -> Path:
    """Move everything in `path` (but the lock) into a fresh sibling folder; returns that folder."""
    target = aside_name(path)
    target.mkdir()
    for child in sorted(path.iterdir()):
        if child.name != LOCK_NAME:
            os.replace(child, target / child.name)
    return target


class DirLock:
    """An exclusive, non-blocking lock on a folder; a second writer gets a ConfigError."""

    def __init__(self, path: Path | str, field: str = "out"):
        self.path = Path(path)
        self.field = field
        self._fh: IO[str] | None = None

    def acquire(self) -> DirLock:
        lock = self.path / LOCK_NAME
        if lock.is_dir() or (lock.exists() and not lock.is_file()):
            raise ConfigError(
                self.field, f"the lock file {lock} is not a regular file; remove it (it holds nothing of a run)"
            )
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fh = open(lock, "a+", encoding="utf-8")
        except OSError as exc:
            raise ConfigError(self.field, f"cannot write to {self.path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise ConfigError(
                self.field,
                f"{self.path} is in use by another mam-bench process "
                "(one writer per folder); wait for it or choose another --out",
            ) from None
        self._fh = fh
        return self

    def release(self) -> None:
        if self._fh is not None:
            fcntl.flock(self._fh.fileno(), fcntl.LOCK_UN)
            self._fh.close()
            self._fh = None

    def __enter__(self) -> DirLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
