"""The dashboard's server holds at most MAX_WEBSOCKETS pages at once: one more is closed with 1013
(try again later) and admitted once another page has gone; plain HTTP is not counted."""

from __future__ import annotations

import asyncio

from mam_bench.dashboards import security
from mam_bench.dashboards.security import MAX_WEBSOCKETS, _guard


def test_websockets_past_the_cap_are_closed_and_a_freed_slot_is_taken_again() -> None:
    async def play() -> tuple[list[dict], int]:
        release = asyncio.Event()
        served: list[int] = []

        async def page(scope, receive, send) -> None:  # a Solara page session: held until released
            served.append(1)
            await release.wait()

        guarded = _guard(page)
        scope = {"type": "websocket", "headers": [(b"host", b"127.0.0.1:8765")]}
        sent: list[dict] = []

        async def send(message: dict) -> None:
            sent.append(message)

        held = [asyncio.create_task(guarded(scope, None, send)) for _ in range(MAX_WEBSOCKETS)]
        await asyncio.sleep(0)
        await guarded(scope, None, send)  # one too many: refused at once
        refused = list(sent)
        release.set()
        await asyncio.gather(*held)
        await guarded(scope, None, send)  # the slots are free again
        return refused, len(served)

    refused, served = asyncio.run(play())
    assert refused == [{"type": "websocket.close", "code": 1013}]
    assert served == MAX_WEBSOCKETS + 1
    assert security._open["websockets"] == 0
