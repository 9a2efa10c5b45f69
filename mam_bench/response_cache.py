"""A persistent response cache: a rerun of the same experiment pays for nothing twice.

SQLite, one row per (model, parameters, messages) key, committed as soon as an answer arrives,
so a run killed mid-way keeps every completed call for `--resume`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError


def cache_key(model: str, params: dict[str, Any], messages: list[dict[str, Any]]) -> str:
    blob = json.dumps({"model": model, "params": params, "messages": messages}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def check_cache_path(path: str | Path) -> None:
    """A --cache must be a SQLite file (or not exist yet); checked read-only, before any write."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError("cache", f"{p} is a directory, not a SQLite file")
    if not p.exists():
        return
    try:
        db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        try:
            db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise ConfigError("cache", f"{p} is not a usable SQLite cache: {exc}") from None


class ResponseCache:
    """get/put of answer records (text, token usage) by key; `path=None` keeps nothing."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self._db: sqlite3.Connection | None = None
        if self.path is not None:
            check_cache_path(self.path)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                # no fsync per answer: a killed process keeps every committed row (the resume
                # case); only a power cut could lose the last few, and those are simply asked again
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, model TEXT, value TEXT)")
                # requests sent and not yet answered: what a killed run may have been billed for
                self._db.execute("CREATE TABLE IF NOT EXISTS pending (key TEXT PRIMARY KEY, sent INTEGER)")
            except (sqlite3.Error, OSError) as exc:
                raise ConfigError("cache", f"cannot open {self.path} as a SQLite cache: {exc}") from None

    def get(self, key: str) -> dict[str, Any] | None:
        if self._db is None:
            return None
        row = self._db.execute("SELECT value FROM answers WHERE key = ?", (key,)).fetchone()
        if not row:
            return None
        try:
            value = json.loads(row[0])
        except (TypeError, ValueError):
            return None  # a damaged row is a miss: the call is simply made again
        return value if isinstance(value, dict) and isinstance(value.get("text"), str) else None

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        """Kept exactly as given: what a resumed run reads back is what the first process used
        (the LLM stack bounds an answer before it gets here)."""
        if self._db is not None:
            self._db.execute(
                "INSERT OR REPLACE INTO answers (key, model, value) VALUES (?, ?, ?)",
                (key, model, json.dumps(value, ensure_ascii=False)),
            )
            self._db.execute("DELETE FROM pending WHERE key = ?", (key,))

    def mark_sent(self, key: str) -> None:
        """Written before the request is sent; `put` (an answer) or `unmark_sent` (a failure) clears it."""
        if self._db is not None:
            self._db.execute("INSERT OR REPLACE INTO pending (key, sent) VALUES (?, 1)", (key,))

    def unmark_sent(self, key: str) -> None:
        if self._db is not None:
            self._db.execute("DELETE FROM pending WHERE key = ?", (key,))

    def take_pending(self) -> int:
        """How many requests an earlier process sent and never saw answered (a kill); cleared."""
        if self._db is None:
            return 0
        n = int(self._db.execute("SELECT COUNT(*) FROM pending").fetchone()[0])
        self._db.execute("DELETE FROM pending")
        return n

    def __len__(self) -> int:
        if self._db is None:
            return 0
        return int(self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
