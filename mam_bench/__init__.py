"""MAM-Bench: paired steering experiments for Mesa agent-based models.

A world is an ordinary Mesa model; a few of its agents are swapped for influence agents whose
decisions come from a controller; a paired run plays the same seeded world twice (reference and
treatment) and reports the lift.
"""

from mam_bench.board import BoardEntry, CoordinationBoard
from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError
from mam_bench.world import AuditEntry, SteerableWorld

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
