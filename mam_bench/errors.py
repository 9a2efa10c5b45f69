"""One error type for bad input, so the CLI can print it and exit before any work starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pydantic costs ~0.2 s to import; the CLI imports this module for every command
    from pydantic import ValidationError


class ConfigError(ValueError):
    """Invalid parameters, ids, paths or configs. The message names the offending field."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def __reduce__(self) -> tuple:
        """Picklable with both arguments, so a worker's error reaches the parent intact."""
        return (type(self), (self.field, self.message))


def config_error_from(exc: ValidationError, prefix: str = "") -> ConfigError:
    """Turn a pydantic error into a ConfigError that names the first bad field."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ())) or "value"
    field = f"{prefix}{loc}" if prefix else loc
    msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
    if err.get("type") == "extra_forbidden":
        msg = "unknown key"
    return ConfigError(field, msg)


class BackendFailed(RuntimeError):
    """The LLM backend cannot go on (a rejected key, an overall deadline): the run stops, exit 3."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)

    def __reduce__(self) -> tuple:
        return (type(self), (self.reason,))
