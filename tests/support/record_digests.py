"""What the worlds' record-digest tables share: a pair's record files digested, and the script
that checks a table against the current code (`--check`) or rewrites it (only when the records are
meant to move)."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROUND_FILES = ("reference.jsonl", "treatment.jsonl")
OTHER_FILES = ("decisions.jsonl", "board.jsonl")


def sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def round_lines(run: Path, name: str) -> bytes:
    """A round record as the whole-board JSON lines it was once written as (read back through
    `mam_bench.records.read_rounds`, so that a change of how snapshots are stored moves nothing)."""
    from mam_bench.records import dumps, read_rounds

    return "".join(dumps(row) + "\n" for row in read_rounds(run, name)).encode("utf-8")


def run_digests(run: Path, skip: tuple[str, ...], lines: Callable[[Path, str], bytes] = round_lines) -> dict[str, str]:
    """One digest per record of a pair's run directory: result.json without the `skip` fields
    (the environment, the clock, fields added since), the round records as lines, the rest as bytes."""
    result = json.loads((run / "result.json").read_text())
    out = {"result.json": sha(json.dumps({k: v for k, v in result.items() if k not in skip}, sort_keys=True))}
    for name in ROUND_FILES:
        out[name] = sha(lines(run, name))
    for name in OTHER_FILES:
        out[name] = sha((run / name).read_bytes())
    return out


def flat_moved(table: dict[str, Any], now: dict[str, Any]) -> list[str]:
    return [k for k in table if table[k] != now[k]]


def script(
    table: Path,
    compute: Callable[[], dict[str, Any]],
    moved: Callable[[dict[str, Any], dict[str, Any]], list[str]] = flat_moved,
) -> None:
    """A digest module's `__main__`: `--check` prints the entries the code no longer reproduces
    (exit 1 if any); no argument rewrites the table."""
    if sys.argv[1:] == ["--check"]:
        out = moved(json.loads(table.read_text()), compute())
        sys.stdout.write("\n".join(out) + "\n" if out else "all records unchanged\n")
        sys.exit(1 if out else 0)
    table.parent.mkdir(exist_ok=True)
    table.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    sys.stdout.write(f"wrote {table}\n")
