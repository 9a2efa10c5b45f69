"""Mesa 3.3 numbers agents per model in the class-level dict `Agent._ids`, keyed by the model, so a
model stays alive as long as its entry does. We leave Mesa's dict where it is and take out only
the entries of our own worlds once they are finished (a pair's worlds, a planner's rollouts), so
a long process does not keep every world it ever played."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mesa

#: the Mesa models our worlds built or copied (a world itself, the user model it wraps, their forks)
_ours: weakref.WeakSet[mesa.Model] = weakref.WeakSet()


def adopt(*models: Any) -> None:
    """Mark models as a world's own, so `released_after` may forget them once finished."""
    for model in models:
        _ours.add(model)


def release(*worlds: Any) -> None:
    """Forget the id counters of these finished worlds and of the Mesa models they wrap."""
    for world in worlds:
        for model in (world, *vars(world).values()):
            if isinstance(model, mesa.Model):
                mesa.Agent._ids.pop(model, None)


@contextmanager
def released_after() -> Iterator[None]:
    """Every world of ours first numbered inside is finished at the end: release it. Other models
    (a host's own, built meanwhile in another thread) keep their counters."""
    before = {id(m) for m in list(mesa.Agent._ids)}
    try:
        yield
    finally:
        release(*(m for m in list(mesa.Agent._ids) if id(m) not in before and m in _ours))
