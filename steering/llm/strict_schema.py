"""A request's answer schema in the subset OpenAI's strict structured outputs accept, or None.

Strict mode (`"strict": true`) guarantees an answer that matches the schema, but only for a
subset of JSON Schema: the root an object; every object with all its properties required and
`additionalProperties: false`; `anyOf` (never `oneOf`); `enum` and `const` of plain values; no
string lengths. So a schema is turned into that subset where the meaning stays: `oneOf`
becomes `anyOf` (our branches never overlap: each is a different tool or action), an optional
property becomes a required one that may be null (our readers treat null as absent), and a
string's `maxLength` is dropped (the parser still refuses a message past the cap). A schema
whose root is not an object (a bare enum of legal actions) or that holds an enum of objects has
no strict form: it is sent with `"strict": false`, as before.
"""

from __future__ import annotations

from typing import Any

#: the keywords strict mode accepts, per OpenAI's structured-outputs guide
ALLOWED = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "anyOf",
    "enum",
    "const",
    "items",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "$defs",
    "$ref",
}
#: dropped: a bound the parser enforces anyway, or a note with no effect on the answer
DROPPED = {"maxLength", "minLength", "default", "examples"}


class NoStrictForm(Exception):
    pass


def strict_schema(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The strict form of `schema`, or None where it has none (then send it with strict false)."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    try:
        return _strict(schema)
    except NoStrictForm:
        return None


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _strict(node: Any) -> Any:
    if not isinstance(node, dict):
        raise NoStrictForm
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in DROPPED:
            continue
        if key == "oneOf":
            key = "anyOf"
        if key not in ALLOWED:
            raise NoStrictForm
        if key in ("enum",) and not all(_plain(v) for v in value):
            raise NoStrictForm
        if key == "const" and not _plain(value):
            raise NoStrictForm
        if key == "anyOf":
            value = [_strict(v) for v in value]
        elif key == "items":
            value = _strict(value)
        elif key == "$defs":
            value = {k: _strict(v) for k, v in value.items()}
        elif key == "properties":
            value = dict(value)  # filled below, where `required` is known
        out[key] = value
    if out.get("type") == "object" or "properties" in out:
        props = out.get("properties", {})
        required = set(node.get("required", []))
        out["properties"] = {
            name: _strict(sub) if name in required else _nullable(_strict(sub)) for name, sub in props.items()
        }
        out["required"] = list(props)
        out["additionalProperties"] = False
    return out


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [node, {"type": "null"}]}


def is_strict(schema: Any) -> bool:
    """Whether `schema` keeps to the strict subset (what the tests hold every world's to)."""
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key not in ALLOWED:
            return False
        if key in ("enum",) and not all(_plain(v) for v in value):
            return False
        if key == "anyOf" and not all(is_strict(v) for v in value):
            return False
        if key == "items" and not is_strict(value):
            return False
        if key == "$defs" and not all(is_strict(v) for v in value.values()):
            return False
    if schema.get("type") == "object" or "properties" in schema:
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is not False or set(schema.get("required", [])) != set(props):
            return False
        return all(is_strict(v) for v in props.values())
    return True
