"""Guarding a run directory: never overwrite a run by accident, one writer at a time.

A run directory that already holds records is refused unless the user asks to `--force` (the
old run is moved aside to a sibling folder, never deleted) or to `--resume` it. The lock is an
advisory `flock` on a file inside the folder, released by the kernel when the process dies, so a
killed run never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
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
    "decisions.jsonl",
    "board.jsonl",
    "llm_calls.jsonl",
)


def holds_run(path: Path, markers: tuple[str, ...] = RUN_MARKERS) -> bool:
    return path.is_dir() and any((path / name).exists() for name in markers)


def check_out_dir(path: Path, field: str = "out") -> None:
    """Reject, before anything is written, an --out that cannot become a folder."""
    if path.exists() and not path.is_dir():
        raise ConfigError(field, f"{path} exists and is not a directory")
    parent = path
    while not parent.exists():
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
    for child in path.iterdir():
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
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fh = open(self.path / LOCK_NAME, "a+", encoding="utf-8")
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
