"""Where a world's run stands, and whether a treatment counts, as named values (no Mesa import)."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """Where a world's run stands. A `str` enum, so records and JSON keep the plain strings.

    A world adapted from a user's Mesa model may stop with a status of its own (any string)."""

    RUNNING = "running"
    #: the reference reached its cap, or nothing moved and nothing will; the treatment ran out of rounds
    HORIZON_EXHAUSTED = "horizon_exhausted"
    #: a treatment that always plays its fixed horizon got there
    FIXED_HORIZON = "fixed_horizon"
    #: a world-specific end: the task is done (a task reached, a shape formed)
    SUCCESS = "success"
    DONE = "done"
    #: at rest: everybody is content, or nobody who wants to move can
    EQUILIBRIUM = "equilibrium"
    BLOCKED = "blocked"
    #: a treatment that played its fixed horizon with agents still able to move (a HorizonBasin world)
    MOVING = "moving"
    #: an adapted Mesa model set its own `running = False` (and declares no status of its own)
    STOPPED = "stopped"


class Validity(StrEnum):
    """Whether a treatment measured its controller (result.json `validity.status`)."""

    VALID = "valid"
    #: more than the allowed share of its decisions were policy errors: it measured the null action
    INVALID = "invalid"
