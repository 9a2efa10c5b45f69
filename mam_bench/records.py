"""The run directory: one folder per pair, append-as-you-go JSONL plus result.json at the end.

Lines are flushed as rounds finish, so a killed run leaves everything it completed on disk.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from mam_bench.errors import ConfigError

RECORD_FILES = (
    "spec.json",
    "result.json",
    "reference.jsonl",
    "treatment.jsonl",
    "reference.snapshots",
    "treatment.snapshots",
    "board.jsonl",
    "decisions.jsonl",
    "llm_calls.jsonl",
    "sessions.jsonl",
)


def _default(obj: Any) -> Any:
    import numpy as np  # here, not at the top: reading a run folder needs neither
    from pydantic import BaseModel

    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def _clean(obj: Any) -> Any:
    """NaN and inf are not JSON; write them as null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def dumps(obj: Any, **kw: Any) -> str:
    return json.dumps(_clean(obj), default=_default, ensure_ascii=False, **kw)


#: records written with a per-line chain: each line's `chain` is the SHA-256 of the previous
#: line's chain and this line's row (without `chain`), so an edited, reordered, dropped or torn
#: line breaks every chain after it (steering.replay checks it before replaying)
CHAINED = ("decisions.jsonl",)
CHAIN_KEY = "chain"


def chain_link(previous: str, row: dict[str, Any]) -> str:
    """The chain value of `row` after a line whose chain was `previous` ("" for the first)."""
    import hashlib

    plain = json.loads(dumps({k: v for k, v in row.items() if k != CHAIN_KEY}))  # as it reads back
    body = json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


def ensure_writable(out: Path | str) -> Path:
    """Fail before any work if the output folder cannot be created or written."""
    path = Path(out)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".write-probe"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise ConfigError("out", f"cannot write to {path}: {exc.strerror or exc}") from None
    return path


@contextmanager
def writing(path: Path | str, field: str = "out") -> Iterator[None]:
    """A write that fails (a full disk, a read-only or vanished folder) is a ConfigError naming the
    file, never a traceback; what was finished before stays."""
    try:
        yield
    except OSError as exc:
        raise ConfigError(field, f"cannot write {path}: {exc.strerror or exc}; finished records are kept") from None


def write_whole(path: Path, text: str, field: str = "out") -> None:
    """Write beside the target, then rename: the file is whole or absent (a full disk leaves the
    old file, or none, never half of a new one looking complete)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with writing(path, field):
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class RunRecords:
    """Writes one pair's files. Pass `out=None` to keep everything in memory only."""

    def __init__(self, out: Path | str | None):
        self.out = Path(out) if out is not None else None
        self._files: dict[str, IO[str]] = {}
        self._snapshots: dict[str, Any] = {}
        self._chains: dict[str, str] = {}
        self.memory: dict[str, list[dict]] = {}
        if self.out is not None:
            ensure_writable(self.out)
            # a rerun starts its records afresh; the LLM cache (not a record) is kept
            for name in RECORD_FILES:
                p = self.out / name
                if p.exists():
                    p.unlink()

    def append(self, name: str, row: dict[str, Any], keep: bool = True) -> None:
        """One JSON line; `keep` holds the row in `memory` too (round rows are not kept: at a
        million agents their snapshots would not fit)."""
        if keep or self.out is None:
            self.memory.setdefault(name, []).append(row)
        if self.out is None:
            return
        with writing(self.out / name):  # a line cut short by a full disk is what a resume expects
            fh = self._files.get(name)
            if fh is None:
                fh = self._files[name] = open(self.out / name, "a", encoding="utf-8")
            if name in CHAINED:
                link = self._chains[name] = chain_link(self._chains.get(name, ""), row)
                row = {**row, CHAIN_KEY: link}
            fh.write(dumps(row) + "\n")
            fh.flush()

    def append_snapshot(self, name: str, round_: int, snapshot: dict[str, Any]) -> None:
        """A round's snapshot into the binary `.snapshots` record beside the round record `name`
        (`mam_bench.snapshots`); the round's row follows as a JSON line (`append`, not kept in
        memory: at a million agents the rows' snapshots would not fit)."""
        if self.out is None:
            return
        from mam_bench.snapshots import SnapshotWriter, snapshot_path

        writer = self._snapshots.get(name)
        if writer is None:
            writer = self._snapshots[name] = SnapshotWriter(snapshot_path(self.out / name), dumps)
        with writing(writer.path):
            writer.write(round_, snapshot)

    def write_json(self, name: str, obj: Any) -> None:
        if self.out is not None:
            write_whole(self.out / name, dumps(obj, indent=2, sort_keys=False) + "\n")

    def close(self) -> None:
        for fh in self._files.values():
            fh.close()
        self._files.clear()
        for writer in self._snapshots.values():
            writer.close()
        self._snapshots.clear()


def read_jsonl(path: Path | str) -> list[dict[str, Any]]:
    """Every row of a JSONL record; a torn, binary or foreign line is a ConfigError naming it."""
    rows = []
    name = Path(path).name
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    row = json.loads(line)
                except ValueError:
                    raise ConfigError(name, f"{path} line {number} is not valid JSON (torn or damaged)") from None
                if not isinstance(row, dict):
                    raise ConfigError(name, f"{path} line {number} is not a JSON object")
                rows.append(row)
    except UnicodeDecodeError:
        raise ConfigError(name, f"{path} is not a UTF-8 text file") from None
    except OSError as exc:
        raise ConfigError(name, f"cannot read {path}: {exc.strerror or exc}") from None
    return rows


@contextmanager
def reading(path: Path | str, field: str = "dir") -> Iterator[None]:
    """Whatever is wrong with one record while it is read or taken apart (unreadable, not JSON,
    a key or a type missing) is a ConfigError that names that file, never a traceback."""
    try:
        yield
    except ConfigError:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        what = f"no {exc}" if isinstance(exc, KeyError) else str(exc).splitlines()[0][:200] if str(exc) else ""
        raise ConfigError(field, f"{path} is damaged ({type(exc).__name__}{': ' + what if what else ''})") from None


def load_record(path: Path | str, field: str = "dir") -> dict[str, Any]:
    """A JSON record (result.json, spec.json) as an object, or a ConfigError naming the file."""
    with reading(path, field):
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ConfigError(field, f"{path} is damaged (expected a JSON object)")
    if Path(path).name in ("spec.json", "result.json"):
        from mam_bench.record_schema import record_version

        record_version(data, Path(path).name)
    return data


#: result.json's field: each `.snapshots` file's name -> its sha256 (runs recorded before it have none)
DIGESTS_KEY = "snapshots_sha256"


def snapshot_digests(run_dir: Path | str) -> dict[str, str]:
    """The sha256 of each `.snapshots` file of a finished run, for its result.json."""
    from mam_bench.snapshots import SUFFIX, digest

    return {p.name: digest(p) for p in sorted(Path(run_dir).glob(f"*{SUFFIX}"))}


def check_digest(frames_path: Path) -> None:
    """A `.snapshots` file must be the one the run's result.json recorded (when it recorded one): a
    reference and treatment swapped, or a file replaced, is a ConfigError naming it."""
    from mam_bench.snapshots import digest

    result = frames_path.parent / "result.json"
    if not result.is_file():
        return
    from mam_bench.record_schema import read_record

    recorded = read_record(load_record(result, frames_path.name), frames_path.name).get(DIGESTS_KEY)
    if recorded is None:  # recorded before digests were
        return
    if not isinstance(recorded, dict) or frames_path.name not in recorded:
        raise ConfigError(frames_path.name, f"{result} records no digest of {frames_path.name}; it is damaged")
    if digest(frames_path) != recorded[frames_path.name]:
        raise ConfigError(
            frames_path.name,
            f"{frames_path} is not the file this run recorded (its sha256 differs from result.json's): "
            "replaced or swapped with another",
        )


def read_rounds(run_dir: Path | str, name: str = "treatment.jsonl") -> list[dict[str, Any]]:
    """The rows of a round record (`reference.jsonl`, `treatment.jsonl`) with their snapshots,
    as one whole JSON line each held them before the snapshots had a file of their own."""
    from mam_bench.snapshots import read_snapshots, snapshot_path

    path = Path(run_dir) / name
    rows = read_jsonl(path)
    frames_path = snapshot_path(path)
    if not frames_path.exists():  # a run recorded with whole lines (or one without snapshots)
        return rows
    check_digest(frames_path)
    frames = read_snapshots(frames_path)
    out = []
    for row in rows:
        snapshot = frames.get(int(row["round"]))
        if snapshot is None:
            raise ConfigError(path.name, f"{frames_path} holds no snapshot of round {row['round']}")
        out.append({**row, **snapshot})
    return out
