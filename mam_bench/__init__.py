"""MAM-Bench: paired steering experiments for Mesa agent-based models.

A world is an ordinary Mesa model; a few of its agents are swapped for influence agents whose
decisions come from a controller; a paired run plays the same seeded world twice (reference and
treatment) and reports the lift.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mam_bench.board import BoardEntry, CoordinationBoard
    from mam_bench.controller import Controller
    from mam_bench.errors import ConfigError
    from mam_bench.protocol import AuditEntry, Decision, Request
    from mam_bench.world import SteerableWorld

#: public names -> their module, imported on first use so `mam-bench --help` need not load Mesa
_LAZY = {
    "BoardEntry": "board",
    "CoordinationBoard": "board",
    "Controller": "controller",
    "Decision": "protocol",
    "Request": "protocol",
    "ConfigError": "errors",
    "AuditEntry": "protocol",
    "SteerableWorld": "world",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"mam_bench.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'mam_bench' has no attribute {name!r}")


__all__ = [
    "AuditEntry",
    "BoardEntry",
    "ConfigError",
    "Controller",
    "CoordinationBoard",
    "Decision",
    "Request",
    "SteerableWorld",
]
__version__ = "0.1.0"
