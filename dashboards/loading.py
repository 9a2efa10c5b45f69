"""What a visitor sees while a page builds, instead of Solara's blank "Loading app"."""

from __future__ import annotations

import solara


@solara.component
def Loading(message: str) -> None:
    with solara.Column(classes=["mam-loading"], style="padding:24px;max-width:720px"):
        solara.Text(message, style="font-size:16px")
        solara.ProgressLinear(True)


def pending(result: solara.Result) -> bool:
    return result.state not in (solara.ResultState.FINISHED, solara.ResultState.ERROR)
