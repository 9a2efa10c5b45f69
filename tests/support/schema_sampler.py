"""A deliberately bad model under a grammar: any answer the JSON schema allows, drawn at random.

A constrained decoder guarantees only that the answer matches the schema; what the model picks
within it may be anything. Sampling the schema uniformly (hostile strings included) is the worst
such model, so a schema that lets an illegal action through shows up as an illegal decision.
"""

from __future__ import annotations

import json
import random
from typing import Any

#: pieces of hostile text a string may be built from
GARBAGE = ("a", " ", '"', "{", "}", "ACTION: UP", "\n", "<post>", "I'm a farmer", "é", "\\", "0")


def sample(schema: dict[str, Any], rng: random.Random, defs: dict[str, Any] | None = None) -> Any:
    defs = schema.get("$defs", {}) if defs is None else defs
    if "$ref" in schema:
        return sample(defs[schema["$ref"].rsplit("/", 1)[-1]], rng, defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return sample(rng.choice(schema[key]), rng, defs)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind)
    if kind == "object" or "properties" in schema:
        required = set(schema.get("required", []))
        props = schema.get("properties", {})
        return {k: sample(v, rng, defs) for k, v in props.items() if k in required or rng.random() < 0.5}
    if kind == "integer":
        return rng.randint(schema.get("minimum", -(10**6)), schema.get("maximum", 10**6))
    if kind == "number":
        return rng.uniform(schema.get("minimum", -1e6), schema.get("maximum", 1e6))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        low = schema.get("minItems", 0)
        n = rng.randint(low, max(low, min(3, schema.get("maxItems", 3))))
        return [sample(schema.get("items", {}), rng, defs) for _ in range(n)]
    if kind == "string":
        text = "".join(rng.choice(GARBAGE) for _ in range(rng.randint(0, 40)))
        text = text.ljust(schema.get("minLength", 0), "a")
        return text[: schema.get("maxLength", len(text))]
    return None


def sampled_answer(schema: dict[str, Any] | None, rng: random.Random) -> str:
    """The answer text: a schema instance, or free garbage when there is no schema."""
    if schema is None:
        return "".join(rng.choice(GARBAGE) for _ in range(rng.randint(0, 60)))
    return json.dumps(sample(schema, rng))
