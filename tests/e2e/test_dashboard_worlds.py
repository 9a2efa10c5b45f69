"""Acceptance 1: per world, the paired view loads, steps in lockstep and resets on a new seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from mam_bench.dashboards.config import available_worlds
from tests.e2e.pages import body_has_no_traceback, boards_render, lift_text, open_paired, round_is, step

pytestmark = pytest.mark.e2e


def test_schelling_is_available() -> None:
    assert "schelling" in available_worlds()


@pytest.mark.parametrize("world", available_worlds())
def test_paired_view(world: str, server, browser, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1800})
    page = ctx.new_page()
    try:
        open_paired(page, f"{server.url}/?world={world}&seed=3")
        body_has_no_traceback(page)
        boards_render(page)
        round_is(page, 0)
        before = lift_text(page)
        page.screenshot(path=str(shots / f"{world}-round0.png"))

        step(page, 3)
        round_is(page, 3)
        after = lift_text(page)
        card = page.locator(".mam-lift-card").inner_text()
        assert "at round 3" in card
        if world == "schelling":  # steering 16 actors for 3 rounds moves the metric itself
            assert after != before, (before, after)
            pillars = page.locator(".mam-pillars")
            assert pillars.locator("img").count() == 0  # drawn on request only
            pillars.get_by_text("show the pillar field").click()
            expect(pillars.locator("img")).to_have_count(1, timeout=20_000)
        body_has_no_traceback(page)
        boards_render(page)
        page.screenshot(path=str(shots / f"{world}-round3.png"), full_page=True)

        seed = page.locator(".mam-seed input")
        seed.fill("5")
        seed.press("Enter")
        round_is(page, 0)
        expect(page.locator(".mam-title")).to_contain_text("seed 5")
        assert lift_text(page).startswith("delta +0.0000 | lift +0.0000")
        boards_render(page)
        body_has_no_traceback(page)
        page.screenshot(path=str(shots / f"{world}-seed5.png"), full_page=True)
    finally:
        ctx.close()
