"""Acceptance 2: two browser sessions own their models and step independently."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.pages import open_paired, round_is, step

pytestmark = pytest.mark.e2e


def test_two_sessions_step_independently(server, browser, shots: Path) -> None:
    a_ctx = browser.new_context(viewport={"width": 1400, "height": 1400})
    b_ctx = browser.new_context(viewport={"width": 1400, "height": 1400})
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        open_paired(a, server.url + "/")
        open_paired(b, server.url + "/")
        step(a, 2)
        round_is(b, 0)
        step(b, 1)
        round_is(a, 2)
        round_is(b, 1)
        step(a, 1)
        round_is(a, 3)
        round_is(b, 1)
        a.screenshot(path=str(shots / "session-a.png"))
        b.screenshot(path=str(shots / "session-b.png"))
    finally:
        a_ctx.close()
        b_ctx.close()
