"""Solara when the [dashboards] extra is installed. Renderer modules also serve the GIF export,
which needs only matplotlib, so their Solara panels must not make the import fail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    import solara
except ImportError:  # core install: boards still draw; the panels are never shown
    solara = None  # type: ignore[assignment]


def component(fn: Callable[..., Any]) -> Callable[..., Any]:
    return solara.component(fn) if solara is not None else fn
