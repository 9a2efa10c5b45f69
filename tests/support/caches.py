"""What a killed run's response caches hold: a resume test kills its run once every answer the
server sent has been committed, so its count of repeated calls does not hang on the machine's speed."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path


def committed_answers(root: Path) -> int:
    """Answers committed to every `llm_cache.sqlite` under `root` (a run, a suite or a benchmark)."""
    total = 0
    for path in root.rglob("llm_cache.sqlite"):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            total += db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        except sqlite3.OperationalError:  # created, table not yet there
            pass
        finally:
            db.close()
    return total


def wait_until_committed(root: Path, answered: Callable[[], int], limit: float = 300) -> None:
    """Until the caches under `root` hold as many answers as the server says it sent (read anew
    each time: a call past the hold check may still be finishing); `limit` only bounds a hang."""
    end = time.monotonic() + limit
    while (held := committed_answers(root)) < (sent := answered()):
        assert time.monotonic() < end, f"{held} of {sent} answers reached the caches under {root}"
        time.sleep(0.05)
