"""Mesa 3.3 keeps one unique_id counter per model in the class-level dict `Agent._ids`, keyed by
the model itself, so every model ever built stays alive (about 2 MiB per pair of a 20x20 grid world).

We swap that dict for one that holds its models weakly: a model's counter lives exactly as long
as the model, ids are numbered as before (1, 2, ... per model), and a finished pair is freed.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

from mesa import Agent


class WeakCounters(weakref.WeakKeyDictionary):
    """model -> itertools.count(1), created on first use, dropped with the model."""

    def __getitem__(self, model: Any) -> Any:
        try:
            return super().__getitem__(model)
        except KeyError:
            counter = itertools.count(1)
            self[model] = counter
            return counter


def release_models() -> None:
    """Install the weak registry once (models already registered keep their counters)."""
    if not isinstance(Agent._ids, WeakCounters):
        weak = WeakCounters()
        for model, counter in list(Agent._ids.items()):
            weak[model] = counter
        Agent._ids = weak


release_models()
