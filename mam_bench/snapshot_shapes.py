"""Per-agent lists of a snapshot that are not flat numbers, taken apart into flat parts.

A network world's `agents` (one dict per agent: id, kind, xy, state), a swarm's `positions`
(`[r, c]` or None per agent) and `actions` (a name or None per agent) would otherwise be written
whole as JSON every round; as parts (flat numeric arrays, and texts as codes into a vocabulary)
the snapshot record stores per round only the entries that changed. `assemble` gives back the
very value (same types, same key order); anything these forms cannot hold exactly stays JSON.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np

#: exact Python type of an entry -> numeric kind of its part
_NUMERIC = {int: "int", float: "float", bool: "bool"}
_DTYPE = {"int": np.int64, "float": np.float64, "bool": np.bool_}
_FILL = {"int": 0, "float": 0.0, "bool": False}

Parts = dict[str, Any]  # part name -> numpy array, or list of str | None (a text part)


def _numeric(values: list[Any], kind: str) -> np.ndarray | None:
    try:
        array = np.asarray(values, dtype=_DTYPE[kind])
    except OverflowError:
        return None
    if kind == "float" and not np.isfinite(array).all():
        return None  # NaN and inf are written as null in JSON: a float part would not read them back
    return array


def _column(values: list[Any], prefix: str, parts: Parts) -> dict[str, Any] | None:
    """The shape of one list of entries (scalars, texts or equal-length number lists, None allowed)."""
    present = [v for v in values if v is not None]
    if not present:
        return {"form": "null"}
    types = set(map(type, present))
    if len(types) != 1:
        return None
    kind = next(iter(types))
    if kind is str:
        parts[prefix + "t"] = values
        return {"form": "text"}
    if kind in _NUMERIC:
        kind = _NUMERIC[kind]
        fill = _FILL[kind]
        array = _numeric([fill if v is None else v for v in values], kind)
        if array is None:
            return None
        parts[prefix + "v"] = array
        if len(present) < len(values):
            parts[prefix + "n"] = np.array([v is not None for v in values])
        return {"form": "scalar", "kind": kind, "nulls": len(present) < len(values)}
    if kind is list:
        widths = set(map(len, present))
        inner = set(map(type, chain.from_iterable(present)))
        if len(widths) != 1 or len(inner) != 1 or next(iter(inner)) not in _NUMERIC:
            return None
        width, kind = widths.pop(), _NUMERIC[inner.pop()]
        if width == 0:
            return None
        blank = [_FILL[kind]] * width
        array = _numeric([blank if v is None else v for v in values], kind)
        if array is None:
            return None
        parts[prefix + "v"] = array.ravel()
        parts[prefix + "n"] = np.array([v is not None for v in values])
        return {"form": "rows", "kind": kind, "width": width}
    return None


def flatten(value: Any) -> tuple[dict[str, Any], Parts] | None:
    """(shape, parts) of a non-empty list of scalars, texts, number lists or same-keyed dicts of
    those; None for anything else (it stays a JSON field)."""
    if type(value) is not list or not value:
        return None
    parts: Parts = {}
    if all(type(v) is dict for v in value):
        keys = tuple(value[0])
        if not all(type(k) is str for k in keys) or any(tuple(v) != keys for v in value):
            return None
        of = {}
        for i, key in enumerate(keys):
            shape = _column([v[key] for v in value], f"{i}.", parts)
            if shape is None:
                return None
            of[key] = shape
        return {"form": "table", "n": len(value), "keys": list(keys), "of": of}, parts
    shape = _column(value, "", parts)
    if shape is None or shape["form"] == "null":
        return None
    return {**shape, "n": len(value)}, parts


def _unflatten(shape: dict[str, Any], prefix: str, parts: Parts, n: int) -> list[Any]:
    form = shape["form"]
    if form == "null":
        return [None] * n
    if form == "text":
        return parts[prefix + "t"]
    values = parts[prefix + "v"].astype(_DTYPE[shape["kind"]])
    if form == "scalar":
        out = values.tolist()
        if shape["nulls"]:
            out = [v if p else None for v, p in zip(out, parts[prefix + "n"].tolist())]
        return out
    rows = values.reshape(n, shape["width"]).tolist()
    return [r if p else None for r, p in zip(rows, parts[prefix + "n"].tolist())]


def assemble(shape: dict[str, Any], parts: Parts) -> list[Any]:
    """The value `flatten` took apart."""
    n = shape["n"]
    if shape["form"] != "table":
        return _unflatten(shape, "", parts, n)
    keys = shape["keys"]
    columns = [_unflatten(shape["of"][key], f"{i}.", parts, n) for i, key in enumerate(keys)]
    return [dict(zip(keys, entry)) for entry in zip(*columns)]
