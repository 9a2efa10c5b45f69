"""The action schema an influence agent may use, and its parsing from LLM text.

Thirteen tools, as many as AgentWorld's (its names accepted as aliases): the economy's eight plus
combat, survival, exploration and the atomic trade pair; and three of AgentWorld's own that only
its tasks offer (`agentworld/tools.py`: `observe`, `verify_inventory`, `complete`). Anything that
does not validate becomes an `invalid` audit outcome with the reason; it never raises into the round.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

ALIASES = {
    "move": "move_to",
    "harvest_resource": "harvest",
    "craft_item": "craft",
    "transfer_items": "transfer",
    "request_items": "request",
    "equip_item": "equip",
    "wait": "sleep",
    "send_chat": "chat",
    "attack_entity": "attack",
    "eat_food": "eat",
    "observe_environment": "observe",
}
#: AgentWorld's argument names where ours differ
ARGUMENTS = {"required_items": "items", "response": "message"}
REQUIRED = {
    "move_to": ("site",),
    "harvest": ("node",),
    "craft": ("item",),
    "transfer": ("item", "to"),
    "chat": ("message",),
    "request": ("item",),
    "equip": ("item",),
    "sleep": (),
    "attack": ("mob",),
    "eat": ("item",),
    "explore": (),
    "offer_trade": ("item", "qty", "want", "want_qty"),
    "accept_trade": ("offer",),
    "observe": (),
    "verify_inventory": ("items",),
    "complete": (),
}
TOOLS = tuple(REQUIRED)  # the one list of tool names: the action's `tool` literal is derived from it
OPTIONAL = {
    "craft": ("skill",),
    "transfer": ("qty",),
    "chat": ("to",),
    "request": ("qty", "to", "recipient"),
    "offer_trade": ("to",),
    "complete": ("message",),
}
FIELDS = (
    "site",
    "node",
    "item",
    "skill",
    "qty",
    "to",
    "recipient",
    "message",
    "mob",
    "want",
    "want_qty",
    "offer",
    "items",
)
MAX_OFFER = 100_000  # offer ids are action ids; a run never logs more actions than this


class CraftingAction(BaseModel):
    """One tool call, flat so that LLM structured output stays simple; per-tool fields are checked.

    `CraftingAction.model_validate({"tool": "harvest", "node": "ore1"})`; AgentWorld tool names
    and `{"name": ..., "arguments": {...}}` shapes are accepted.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool: Literal[TOOLS]  # type: ignore[valid-type]
    site: str | None = None
    node: str | None = None
    item: str | None = None
    skill: str | None = None
    qty: int | None = Field(None, ge=1, le=50)
    to: int | None = None
    recipient: int | None = None
    message: str | None = Field(None, min_length=1, max_length=500)
    mob: str | None = None
    want: str | None = None
    want_qty: int | None = Field(None, ge=1, le=50)
    offer: int | None = Field(None, ge=0, le=MAX_OFFER)
    items: tuple[str, ...] | None = Field(None, min_length=1, max_length=20)

    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, data: Any) -> Any:
        return normalise(data) if isinstance(data, dict) else data

    @model_validator(mode="after")
    def _fields_of_tool(self) -> CraftingAction:
        need = REQUIRED[self.tool]
        allowed = set(need) | set(OPTIONAL.get(self.tool, ()))
        for f in FIELDS:
            value = getattr(self, f)
            if f in need and value is None:
                raise ValueError(f"{self.tool} needs {f}")
            if f not in allowed and value is not None:
                raise ValueError(f"{self.tool} takes no {f}")
        if self.tool == "request" and self.qty is not None and self.qty > 20:
            raise ValueError("request qty is at most 20")
        return self

    def as_json(self) -> dict[str, Any]:
        d = self.model_dump(mode="json", exclude_none=True)
        if self.tool in ("transfer", "request") and "qty" not in d:
            d["qty"] = 1
        return d

    # --- the action space, read from an observation (mam_bench.capabilities) ----------------------
    @classmethod
    def null_action(cls) -> dict[str, Any]:
        return {"tool": "sleep"}

    @classmethod
    def random_action(cls, observation: Any, rng: Any) -> dict[str, Any]:
        return observation.random_action(rng)

    @classmethod
    def parse_answer(cls, text: str) -> dict[str, Any] | None:
        return parse_answer(text)


def normalise(raw: dict[str, Any]) -> dict[str, Any]:
    """Accept AgentWorld tool names and `{"name":..., "arguments":{...}}` tool-call shapes."""
    d = dict(raw)
    if "tool" not in d and "action" in d and isinstance(d["action"], str):
        d["tool"] = d.pop("action")
    if "tool" not in d and "name" in d:
        args = d.get("arguments") or d.get("args") or {}
        if isinstance(args, str):
            args = json.loads(args)
        d = {"tool": d["name"], **args}
    for theirs, ours in ARGUMENTS.items():
        if theirs in d and ours not in d:
            d[ours] = d.pop(theirs)
    tool = str(d.get("tool", "")).strip()
    d["tool"] = ALIASES.get(tool, tool)
    if d["tool"] == "chat":
        d["message"] = " ".join(str(d.get("message", "")).split())  # one line, for the text form
    return d


def validate_action(raw: Any) -> tuple[dict[str, Any] | None, str]:
    """(action dict, "") or (None, reason)."""
    if not isinstance(raw, dict):
        return None, f"action must be an object, got {type(raw).__name__}"
    try:
        model = CraftingAction.model_validate(raw)
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else {"msg": str(exc), "loc": ()}
        loc = ".".join(str(p) for p in first.get("loc", ()))
        return None, f"{loc}: {first.get('msg')}" if loc else str(first.get("msg"))
    return model.as_json(), ""


_JSON = re.compile(r"\{.*\}", re.S)


def parse_answer(text: str) -> dict[str, Any] | None:
    """The first JSON object in an LLM answer (fenced or bare), normalised; None if absent."""
    if not text:
        return None
    for block in re.findall(r"```(?:json)?\s*(\{.*?\})\s*```", text, re.S) or _JSON.findall(text):
        try:
            obj = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return normalise(obj)
    return None


MAX_AGENTS = 20  # tasks have 3 to 20 agents; an id beyond the task fails its precondition, not the schema


def strict_schema() -> dict[str, Any]:
    """The action JSON schema with one branch per tool (`oneOf`): required fields, no extra keys,
    names from the catalog, bounded quantities and agent ids. Schema-valid means the validator
    accepts it; whether it can happen now (site, stock, inventory) is the world's precondition."""
    from mam_bench.models.crafting.catalog import catalog

    cat = catalog()
    agent = {"type": "integer", "minimum": 0, "maximum": MAX_AGENTS - 1}
    qty = {"type": "integer", "minimum": 1, "maximum": 50}
    fields: dict[str, dict[str, Any]] = {
        "site": {"enum": sorted(cat.sites)},
        "node": {"enum": sorted(cat.nodes)},
        "item": {"enum": sorted(cat.items)},
        "skill": {"enum": sorted({r.skill for r in cat.recipes.values()})},
        "qty": qty,
        "to": agent,
        "recipient": agent,
        "message": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[A-Za-z0-9_]+( [A-Za-z0-9_]+)*$"},
        "mob": {"enum": sorted(cat.mobs)},
        "want": {"enum": sorted(cat.items)},
        "want_qty": qty,
        "offer": {"type": "integer", "minimum": 0, "maximum": MAX_OFFER},
        "items": {"type": "array", "items": {"enum": sorted(cat.items)}, "minItems": 1, "maxItems": 20},
    }
    branches = []
    for tool in TOOLS:
        props: dict[str, Any] = {"tool": {"const": tool}}
        for f in (*REQUIRED[tool], *OPTIONAL.get(tool, ())):
            props[f] = fields[f]
        if tool == "request":
            props["qty"] = {**qty, "maximum": 20}
        branches.append(
            {
                "type": "object",
                "properties": props,
                "required": ["tool", *REQUIRED[tool]],
                "additionalProperties": False,
            }
        )
    return {"oneOf": branches}
