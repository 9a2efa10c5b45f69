"""Random instances of an action JSON schema, for checking that schema-valid means valid.

hypothesis-jsonschema does this too, but it spends most of a 1,000-draw test on its search
machinery; an action schema is a small tree of objects, alternatives, enums and bounded numbers,
which a direct sampler covers in milliseconds. Bounds are drawn more often than their share
(edges are where validators disagree), optional fields are present about half the time, and a
keyword this sampler does not know raises instead of being ignored: a draw that silently skipped
a constraint would make the check pass for the wrong reason.
"""

from __future__ import annotations

import functools
import re
import string
from re import _constants as sre  # the regex parser's node names (Python 3.11+)
from re import _parser as sre_parse
from typing import Any

import numpy as np

# annotation keywords that do not constrain an instance
_NOTES = {"title", "description", "default", "examples", "$schema", "$id", "$comment"}
_TEXT = string.printable + "éü→✓ \u00a0"


class UnsupportedSchema(ValueError):
    """The schema uses a keyword the sampler cannot honour."""


def draw_instances(schema: dict, n: int, seed: int = 0) -> list[Any]:
    """`n` instances of `schema`, reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    defs = schema.get("$defs", {})
    return [_draw(schema, rng, defs, "$") for _ in range(n)]


def _draw(node: dict, rng: np.random.Generator, defs: dict, at: str) -> Any:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return _draw(defs[name], rng, defs, f"{at}->{name}")
    for key in ("oneOf", "anyOf"):
        if key in node:
            options = node[key]
            i = int(rng.integers(len(options)))
            return _draw(options[i], rng, defs, f"{at}.{key}[{i}]")
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][int(rng.integers(len(node["enum"])))]
    kind = node.get("type")
    if isinstance(kind, list):
        kind = kind[int(rng.integers(len(kind)))]
    draw = _BY_TYPE.get(kind)
    if draw is None:
        raise UnsupportedSchema(f"{at}: no type, const, enum or alternative to draw from: {node}")
    return draw(node, rng, defs, at)


def _known(node: dict, keys: set[str], at: str) -> None:
    unknown = set(node) - keys - _NOTES - {"type"}
    if unknown:
        raise UnsupportedSchema(f"{at}: cannot honour {sorted(unknown)}")


def _object(node: dict, rng: np.random.Generator, defs: dict, at: str) -> dict:
    _known(node, {"properties", "required", "additionalProperties"}, at)
    if node.get("additionalProperties", True) is not False:
        raise UnsupportedSchema(f"{at}: objects must set additionalProperties: false")
    required = set(node.get("required", ()))
    out = {}
    for name, sub in node.get("properties", {}).items():
        if name in required or rng.random() < 0.5:
            out[name] = _draw(sub, rng, defs, f"{at}.{name}")
    return out


def _integer(node: dict, rng: np.random.Generator, defs: dict, at: str) -> int:
    _known(node, {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}, at)
    low = node.get("minimum", node.get("exclusiveMinimum", -(10**6) - 1) + 1)
    high = node.get("maximum", node.get("exclusiveMaximum", 10**6 + 1) - 1)
    if rng.random() < 0.3:
        return int(low if rng.random() < 0.5 else high)
    return int(rng.integers(low, high + 1))


def _number(node: dict, rng: np.random.Generator, defs: dict, at: str) -> float:
    _known(node, {"minimum", "maximum"}, at)
    low, high = node.get("minimum", -1e6), node.get("maximum", 1e6)
    if rng.random() < 0.3:
        return float(low if rng.random() < 0.5 else high)
    return float(rng.uniform(low, high))


def _string(node: dict, rng: np.random.Generator, defs: dict, at: str) -> str:
    _known(node, {"minLength", "maxLength", "pattern"}, at)
    low, high = node.get("minLength", 0), node.get("maxLength", 300)
    if "pattern" not in node:
        size = int(rng.integers(low, high + 1))
        return "".join(_TEXT[i] for i in rng.integers(len(_TEXT), size=size))
    tree = _parsed(node["pattern"])
    for _ in range(200):
        text = _from_regex(tree, rng, budget=high)
        if low <= len(text) <= high and re.search(node["pattern"], text):
            return text
    raise UnsupportedSchema(f"{at}: no string of length {low}-{high} drawn for pattern {node['pattern']!r}")


@functools.cache
def _parsed(pattern: str) -> Any:
    return sre_parse.parse(pattern)


def _from_regex(tree: Any, rng: np.random.Generator, budget: int) -> str:
    """A string matching a parsed regex (anchors match the ends, as JSON Schema's `search` allows)."""
    out = []
    for op, arg in tree:
        if op is sre.LITERAL:
            out.append(chr(arg))
        elif op is sre.ANY:
            out.append(_TEXT[int(rng.integers(len(_TEXT) - 2))])
        elif op is sre.IN:
            out.append(_from_class(arg, rng))
        elif op is sre.SUBPATTERN:
            out.append(_from_regex(arg[-1], rng, budget))
        elif op is sre.BRANCH:
            options = arg[1]
            out.append(_from_regex(options[int(rng.integers(len(options)))], rng, budget))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            least, most, sub = arg
            most = min(most, least + max(1, budget // 10))
            for _ in range(int(rng.integers(least, most + 1))):
                out.append(_from_regex(sub, rng, budget))
        elif op is sre.AT:
            continue
        else:
            raise UnsupportedSchema(f"pattern element {op} is not supported")
    return "".join(out)


def _from_class(items: list, rng: np.random.Generator) -> str:
    chars = _class_chars(tuple(items))
    return chars[int(rng.integers(len(chars)))]


@functools.cache
def _class_chars(items: tuple) -> str:
    chars: list[str] = []
    for op, arg in items:
        if op is sre.LITERAL:
            chars.append(chr(arg))
        elif op is sre.RANGE:
            chars.extend(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre.CATEGORY and arg is sre.CATEGORY_DIGIT:
            chars.extend(string.digits)
        elif op is sre.CATEGORY and arg is sre.CATEGORY_WORD:
            chars.extend(string.ascii_letters + string.digits + "_")
        elif op is sre.CATEGORY and arg is sre.CATEGORY_SPACE:
            chars.extend(" \t")
        else:
            raise UnsupportedSchema(f"character class element {op} {arg} is not supported")
    return "".join(chars)


def _array(node: dict, rng: np.random.Generator, defs: dict, at: str) -> list:
    _known(node, {"items", "minItems", "maxItems"}, at)
    size = int(rng.integers(node.get("minItems", 0), node.get("maxItems", 5) + 1))
    return [_draw(node.get("items", {"type": "integer"}), rng, defs, f"{at}[]") for _ in range(size)]


_BY_TYPE = {
    "object": _object,
    "integer": _integer,
    "number": _number,
    "string": _string,
    "boolean": lambda node, rng, defs, at: bool(rng.random() < 0.5),
    "null": lambda node, rng, defs, at: None,
    "array": _array,
}
