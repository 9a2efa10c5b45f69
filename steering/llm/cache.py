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


def cache_key(model: str, params: dict[str, Any], messages: list[dict[str, Any]]) -> str:
    blob = json.dumps({"model": model, "params": params, "messages": messages}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """get/put of answer records (text, token usage) by key; `path=None` keeps nothing."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self._db: sqlite3.Connection | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            # no fsync per answer: a killed process keeps every committed row (the resume
            # case); only a power cut could lose the last few, and those are simply asked again
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, model TEXT, value TEXT)")

    def get(self, key: str) -> dict[str, Any] | None:
        if self._db is None:
            return None
        row = self._db.execute("SELECT value FROM answers WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        if self._db is not None:
            self._db.execute(
                "INSERT OR REPLACE INTO answers (key, model, value) VALUES (?, ?, ?)",
                (key, model, json.dumps(value, ensure_ascii=False)),
            )

    def __len__(self) -> int:
        if self._db is None:
            return 0
        return int(self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
