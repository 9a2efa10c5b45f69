"""The version of a run's JSON records (spec.json, result.json), and the one reader that maps the
names older records used onto today's, so a run recorded before a rename still reads.

Version 1 (no `record_version` field) named the controller twice: `policy` (the name it was
chosen by) beside `controller` (its own description, in result.json). Version 2 says `controller`
once: the chosen name in spec.json, and in result.json the description whose `name` is it.
"""

from __future__ import annotations

from typing import Any

RECORD_VERSION = 2


def read_record(data: dict[str, Any]) -> dict[str, Any]:
    """A spec.json or result.json in today's names (a new dict; `record_version` dropped)."""
    data = dict(data)
    if data.pop("record_version", 1) >= RECORD_VERSION:
        return data
    name = data.pop("policy", None)
    if isinstance(data.get("controller"), dict):  # result.json
        data["controller"] = {**data["controller"], **({"name": name} if name is not None else {})}
    elif name is not None:  # spec.json
        data["controller"] = name
    return data


def controller_name(record: dict[str, Any]) -> str | None:
    """The controller's chosen name in a record read by `read_record` (spec.json or result.json)."""
    controller = record.get("controller")
    return controller.get("name") if isinstance(controller, dict) else controller
