"""Acceptance 5: the landscape page renders a surface from a CSV written by `mam-bench landscape`."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.pages import LOAD_TIMEOUT, body_has_no_traceback

pytestmark = pytest.mark.e2e


def test_landscape_surface(server, browser, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1200})
    page = ctx.new_page()
    try:
        page.goto(server.url + "/landscape")
        card = page.locator(".mam-landscape")
        expect(card).to_be_visible(timeout=LOAD_TIMEOUT)
        img = card.locator("img")
        expect(img).to_be_visible()
        box = img.bounding_box()
        assert box and box["width"] > 300
        expect(page.locator(".mam-landscape-cell")).to_contain_text("cell (3/4, 1/4): mean satisfaction")
        body_has_no_traceback(page)
        page.screenshot(path=str(shots / "landscape.png"), full_page=True)
    finally:
        ctx.close()
