"""Per-round snapshots as a binary, columnar record that grows with what changed.

A run's round rows stay JSON lines (`reference.jsonl`, `treatment.jsonl`: round, status,
metrics); each row's snapshot goes beside it into `reference.snapshots` / `treatment.snapshots`,
a stream of `.npy` arrays (numpy's own format, read with `np.load`, no pickle). Per round one
frame: a header (JSON bytes) naming the snapshot's keys, the small fields that changed, and per
column how it is stored; then the arrays. A column is a flat list of ints, floats or bools (an
agent attribute): the first frame holds it whole, later frames only the entries that changed
(their indices and new values), or the whole column again when most of it changed. A per-agent
list of another form (dicts with the same keys, `[r, c]` or None, names) is taken apart into such
columns (`snapshot_shapes`): the header gives its shape when that changed (`shaped`) and the words
new to a text column's vocabulary (`words`); its columns are named `KEY/PART`.

`records.read_rounds` gives back the rows exactly as they were once written whole (same keys, order,
values and types), and reads a run recorded before this form, whose JSON lines hold the snapshot.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np

from mam_bench.errors import ConfigError
from mam_bench.snapshot_shapes import assemble, flatten

SUFFIX = ".snapshots"
#: the Python type of a column's entries, by name in the header, and the numpy kind it is kept as
_KINDS = {"int": int, "float": float, "bool": bool}
_KIND_OF = {"i": "int", "f": "float", "b": "bool"}


def as_lists(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A world's snapshot with its numpy columns as lists: what a record row holds in memory and
    what JSON writes (a world may hand its per-agent state over as arrays, so the `.snapshots`
    record is written without a list of a million Python numbers every round)."""
    return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in snapshot.items()}


def snapshot_path(round_record: Path | str) -> Path:
    """`treatment.jsonl` -> `treatment.snapshots`."""
    path = Path(round_record)
    return path.with_name(path.name.removesuffix(".jsonl") + SUFFIX)


def _column(value: Any) -> tuple[str, np.ndarray] | None:
    """(kind, array) when `value` is a flat, non-empty list of one of ints, floats, bools (exactly
    representable: ints within int64, floats finite); anything else stays a JSON field."""
    if isinstance(value, np.ndarray):  # a world's own array (its snapshot's column): copied, it changes in place
        kind = {"b": "bool", "i": "int", "u": "int" if value.dtype.itemsize < 8 else None, "f": "float"}.get(
            value.dtype.kind
        )
        if kind is None or value.ndim != 1 or not value.size or (kind == "float" and not np.isfinite(value).all()):
            return None
        return kind, value.astype(_dtype(kind))
    if not isinstance(value, list) or not value:
        return None
    types = set(map(type, value))
    if len(types) != 1:
        return None
    kind = next((k for k, t in _KINDS.items() if t in types), None)
    if kind is None:
        return None
    try:
        array = np.asarray(value, dtype={"int": np.int64, "float": np.float64, "bool": np.bool_}[kind])
    except OverflowError:
        return None
    if kind == "float" and not np.isfinite(array).all():
        return None  # NaN and inf are written as null in JSON; a column would read them back as floats
    return kind, array


def _compact(array: np.ndarray) -> np.ndarray:
    """Ints in the narrowest type that holds them (a board's ids fit in 32 bits, groups in 8)."""
    if array.dtype != np.int64 or array.size == 0:
        return array
    lo, hi = int(array.min()), int(array.max())
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= lo and hi <= info.max:
            return array.astype(dtype)
    return array


class SnapshotWriter:
    """Appends one frame per round to a `.snapshots` file, flushed as the round is written."""

    def __init__(self, path: Path, encode: Callable[[Any], str]) -> None:
        self.path = path
        #: JSON text of a field, as the round records write it (`records.dumps`)
        self.encode = encode
        self._fh: IO[bytes] | None = None
        self._columns: dict[str, np.ndarray] = {}
        self._fields: dict[str, str] = {}
        #: a taken-apart list's shape as last written, and each text part's vocabulary (only grows)
        self._shapes: dict[str, str] = {}
        self._words: dict[str, dict[str, int]] = {}

    def write(self, round_: int, snapshot: dict[str, Any]) -> None:
        header: dict[str, Any] = {"round": round_, "keys": list(snapshot), "fields": {}, "columns": {}}
        arrays: list[np.ndarray] = []
        for name, value in snapshot.items():
            column = _column(value)
            if column is not None:
                self._fields.pop(name, None)
                self._shapes.pop(name, None)
                arrays += self._put(header, name, *column)
                continue
            taken = flatten(value)
            if taken is not None:
                self._fields.pop(name, None)
                self._columns.pop(name, None)
                arrays += self._put_shaped(header, name, *taken)
                continue
            text = self.encode(value)
            if self._fields.get(name) != text:
                header["fields"][name] = json.loads(text)
                self._fields[name] = text
            self._columns.pop(name, None)
            self._shapes.pop(name, None)
        if self._fh is None:
            self._fh = open(self.path, "ab")
        np.save(self._fh, np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8))
        for array in arrays:
            np.save(self._fh, array)
        self._fh.flush()

    def _put(self, header: dict[str, Any], name: str, kind: str, array: np.ndarray) -> list[np.ndarray]:
        """One column: whole, or the entries that changed since its last frame."""
        before = self._columns.get(name)
        self._columns[name] = array
        if before is not None and before.shape == array.shape:
            changed = np.flatnonzero(before != array)
            if 2 * changed.size <= array.size:
                header["columns"][name] = [kind, "changes"]
                return [_compact(changed), _compact(array[changed])]
        header["columns"][name] = [kind, "whole"]
        return [_compact(array)]

    def _put_shaped(self, header: dict[str, Any], name: str, shape: dict, parts: dict) -> list[np.ndarray]:
        """A taken-apart list (`snapshot_shapes`): its shape when it changed, then each part as a
        column named `name/part` (texts as codes, the words new to the vocabulary in the header)."""
        text = json.dumps(shape)
        header.setdefault("shaped", {})[name] = shape if self._shapes.get(name) != text else 0
        self._shapes[name] = text
        arrays = []
        for part, values in parts.items():
            column = f"{name}/{part}"
            if isinstance(values, list):  # a text part
                words = self._words.setdefault(column, {})
                fresh = [w for w in dict.fromkeys(values) if w is not None and w not in words]
                if fresh:
                    header.setdefault("words", {})[column] = fresh
                    words.update(zip(fresh, range(len(words), len(words) + len(fresh))))
                values = np.array([-1 if w is None else words[w] for w in values], dtype=np.int64)
            arrays += self._put(header, column, _KIND_OF[values.dtype.kind], values)
        return arrays

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def read_snapshots(path: Path | str, allow_cut_tail: bool = False) -> dict[int, dict[str, Any]]:
    """Every round's snapshot in a `.snapshots` file, by round. A frame cut short (a killed run)
    is dropped when `allow_cut_tail`, else it is a ConfigError naming the file, as is anything
    that is not such a stream."""
    path = Path(path)
    out: dict[int, dict[str, Any]] = {}
    columns: dict[str, np.ndarray] = {}
    fields: dict[str, Any] = {}
    shapes: dict[str, dict] = {}
    words: dict[str, list[str]] = {}
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            while fh.tell() < size:
                try:
                    round_, snapshot = _read_frame(fh, columns, fields, shapes, words)
                except Damaged as exc:  # no kill writes this: never taken for a cut tail
                    raise ConfigError(path.name, f"{path} is damaged ({exc})") from None
                except (ValueError, EOFError, KeyError, TypeError, IndexError, UnicodeDecodeError, MemoryError) as exc:
                    if allow_cut_tail:
                        break
                    raise ConfigError(path.name, f"{path} is damaged or cut short ({exc})") from None
                out[round_] = snapshot
    except OSError as exc:
        raise ConfigError(path.name, f"cannot read {path}: {exc.strerror or exc}") from None
    return out


def _read_frame(
    fh: IO[bytes],
    columns: dict[str, np.ndarray],
    fields: dict[str, Any],
    shapes: dict[str, dict],
    words: dict[str, list[str]],
) -> tuple[int, dict]:
    header = json.loads(_load(fh).tobytes().decode("utf-8"))
    fields.update(header["fields"])
    shaped = header.get("shaped", {})
    shapes.update((name, shape) for name, shape in shaped.items() if shape)
    for column, fresh in header.get("words", {}).items():
        words.setdefault(column, []).extend(fresh)
    for name, (kind, how) in header["columns"].items():
        if how == "whole":
            columns[name] = _load(fh).astype(_dtype(kind))
        elif how == "changes":
            at, values = _load(fh), _load(fh)
            column = columns[name].copy()
            column[at] = values
            columns[name] = column
        else:
            raise ValueError(f"unknown column form {how!r}")
    snapshot = {}
    for name in header["keys"]:
        if name in shaped:
            snapshot[name] = _assembled(name, shapes[name], columns, words)
        else:
            snapshot[name] = columns[name].tolist() if name in header["columns"] else fields[name]
    return int(header["round"]), snapshot


#: an array larger than this is no snapshot's (10,000 agents x 8 bytes is 80 kB): a damaged header
MAX_ARRAY_BYTES = 1 << 30


class Damaged(ValueError):
    """A frame no run could have written (not a frame cut short by a kill)."""


def _load(fh: IO[bytes]) -> np.ndarray:
    """The next array, once its header is seen to claim no more bytes than the file has left (a
    damaged header claiming 10^11 elements is a ValueError, never an allocation of them)."""
    start = fh.tell()
    version = np.lib.format.read_magic(fh)
    read_header = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    if version not in read_header:
        raise ValueError(f"unknown array format {version}")
    shape, _, dtype = read_header[version](fh)
    if dtype.hasobject:
        raise ValueError("an array of objects")
    claimed = int(np.prod(shape, dtype=object)) * dtype.itemsize
    left = os.fstat(fh.fileno()).st_size - fh.tell()
    if claimed > MAX_ARRAY_BYTES:
        raise Damaged(f"an array claims {claimed} bytes, more than any snapshot holds ({MAX_ARRAY_BYTES})")
    if claimed > left:
        raise ValueError(f"an array claims {claimed} bytes where {left} are left")
    fh.seek(start)
    return np.load(fh, allow_pickle=False)


def digest(path: Path | str) -> str:
    """The sha256 of a `.snapshots` file (result.json records each, so a swapped file is caught)."""
    sha = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def _assembled(name: str, shape: dict, columns: dict[str, np.ndarray], words: dict[str, list[str]]) -> list:
    """A taken-apart list from its part columns (text parts decoded through their vocabulary)."""
    parts: dict[str, Any] = {}
    prefix = name + "/"
    for column, values in columns.items():
        if not column.startswith(prefix):
            continue
        part = column[len(prefix) :]
        if part.endswith("t"):
            vocabulary = words.get(column, [])
            parts[part] = [None if c < 0 else vocabulary[c] for c in values.tolist()]
        else:
            parts[part] = values
    return assemble(shape, parts)


def _dtype(kind: str) -> type:
    return {"int": np.int64, "float": np.float64, "bool": np.bool_}[kind]
