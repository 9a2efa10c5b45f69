"""The files a run reads beyond its parameters (a world's `InputFiles`: a user's task file and its
verifier), recorded by content in spec.json so that a resume cannot finish a run on other files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mam_bench.capabilities import InputFiles
from mam_bench.errors import ConfigError

#: spec.json's key for them (beside the spec's own fields)
KEY = "inputs"


def input_files(prep: Any) -> dict[str, str]:
    """{path: sha256} of every file the prepared run reads (`prep`: the runner's Prepared, untyped
    here so that the runner can import this module); empty for most worlds."""
    return prep.params.input_files() if isinstance(prep.params, InputFiles) else {}


def spec_record(spec: Any, prep: Any) -> dict[str, Any]:
    """spec.json: the spec, its controller one mapping (the name and the options given, the shape
    result.json's has), and the input files by content when there are any."""
    from mam_bench.record_schema import spec_controller

    body = spec.model_dump(mode="json")
    body["controller"] = spec_controller(body["controller"], body.pop("controller_options"))
    files = input_files(prep)
    return {**body, **({KEY: files} if files else {})}


def check_unchanged(recorded: Any, prep: Any, spec_file: Path) -> None:
    """A resumed run reads the files it started with, byte for byte, or it is refused."""
    if recorded is not None and not (isinstance(recorded, dict) and all(isinstance(v, str) for v in recorded.values())):
        raise ConfigError("resume", f"{spec_file} is damaged: {KEY} is not a mapping of file -> sha256")
    before, now = recorded or {}, input_files(prep)
    for path in sorted(set(before) | set(now)):
        if before.get(path) != now.get(path):
            what = (
                "is no longer read" if path not in now else "was not read before" if path not in before else "changed"
            )
            raise ConfigError(
                "resume",
                f"{path} {what} since the run started; a resume would finish it on another task (use a new --out)",
            )
