"""A side-panel text field that keeps what the user is typing until it is committed.

Solara's own inputs (without continuous update) send their committed value back to the browser at
every redraw of the page, so half-typed text vanishes whenever anything else redraws (reported
upstream as widgetti/solara#779). A playing pair redraws at every round, and a pair that finishes
building redraws once: typing then raced the page. Here each keystroke is kept in the field's own
state, so a redraw sends back what is typed; the experiment changes only on Enter or on leaving the
field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import solara
from solara.alias import rv
from solara.components.input import use_change


@solara.component
def DraftInput(
    label: str,
    value: str,
    on_commit: Callable[[Any], None],
    parse: Callable[[str], Any] = str,
    classes: list[str] | None = None,
) -> Any:
    """`parse` turns the text into the committed value; a ValueError shows under the field and
    commits nothing (the text stays for the user to mend)."""
    draft = solara.use_reactive(value)  # follows `value` whenever the committed value changes
    error, set_error = solara.use_state("")

    def type_(text: str | None) -> None:
        draft.set(text or "")
        set_error("")

    def commit(text: str | None) -> None:
        text = text or ""
        if text == value:
            return
        try:
            parsed = parse(text)
        except ValueError as exc:
            set_error(str(exc) or "not a valid value")
            return
        on_commit(parsed)

    field = rv.TextField(
        label=label,
        v_model=draft.value,
        on_v_model=type_,
        error=bool(error),
        messages=[error] if error else [],
        hide_details="auto",
        class_=" ".join(classes or []),
    )
    use_change(field, commit)
    return field
