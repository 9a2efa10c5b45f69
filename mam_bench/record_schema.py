"""The version of a run's JSON records (spec.json, result.json), and the one reader that maps the
names older records used onto today's, so a run recorded before a rename still reads.

Version 1 (no `record_version` field) named the controller twice: `policy` (the name it was
chosen by) beside `controller` (its own description, in result.json). Version 2 says `controller`
once: the chosen name in spec.json, and in result.json the description whose `name` is it.
Version 3 gives `controller` one shape in every record: a mapping with the `name` it was chosen
by and its options (spec.json: the options given, which were `controller_options` beside the
name; result.json: the controller's own description, as in version 2).
"""

from __future__ import annotations

import json
from typing import Any

from mam_bench.errors import ConfigError

RECORD_VERSION = 3


def record_version(data: dict[str, Any], name: str = "record") -> int:
    """The one reader of a record's `record_version` (1 when absent): a whole number from 1 to
    RECORD_VERSION, else a ConfigError on `name` (the file's name) saying why."""
    version = data.get("record_version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        shown = json.dumps(version)[:40] if isinstance(version, (str, int, float, list, dict, type(None))) else "?"
        raise ConfigError(name, f"record_version {shown} is not a version (a whole number from 1 to {RECORD_VERSION})")
    if version > RECORD_VERSION:
        raise ConfigError(name, f"record_version {version} is newer than this mam-bench ({RECORD_VERSION})")
    if version < 1:
        raise ConfigError(
            name, f"record_version {version} is not a version (a whole number from 1 to {RECORD_VERSION})"
        )
    return version


def read_record(data: dict[str, Any], name: str = "record") -> dict[str, Any]:
    """A spec.json or result.json in today's names (a new dict; `record_version` dropped); a
    version this mam-bench cannot read is a ConfigError on `name`."""
    version = record_version(data, name)
    data = dict(data)
    data.pop("record_version", None)
    if version >= RECORD_VERSION:
        return data
    if version == 1:
        name = data.pop("policy", None)
        if isinstance(data.get("controller"), dict):  # result.json
            data["controller"] = {**data["controller"], **({"name": name} if name is not None else {})}
        elif name is not None:  # spec.json
            data["controller"] = name
    if not isinstance(data.get("controller"), dict) and ("controller" in data or "controller_options" in data):
        options = data.pop("controller_options", None)  # spec.json: the name, and beside it the options
        data["controller"] = spec_controller(
            data.get("controller", "rule"), options if isinstance(options, dict) else {}
        )
    return data


def spec_controller(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """spec.json's `controller`: the chosen name and the options given (the shape result.json's
    description has)."""
    return {"name": name, **options}


def spec_fields(record: dict[str, Any]) -> dict[str, Any]:
    """A spec.json read by `read_record` as the runner's PairSpec fields (`controller` the name,
    `controller_options` the rest of the mapping)."""
    fields = dict(record)
    controller = fields.pop("controller", None)
    if isinstance(controller, dict):
        options = dict(controller)
        fields["controller"] = options.pop("name", None)
        fields["controller_options"] = options
    elif controller is not None:
        fields["controller"] = controller
    return fields


def controller_name(record: dict[str, Any]) -> str | None:
    """The controller's chosen name in a record read by `read_record` (spec.json or result.json)."""
    controller = record.get("controller")
    return controller.get("name") if isinstance(controller, dict) else controller
