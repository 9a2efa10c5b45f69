"""Text typed into the side panel stays there until the user commits it (Enter or leaving the
field), however often the page redraws meanwhile: a playing pair redraws at every round."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from mam_bench.dashboards.controls import influence_hint
from tests.e2e.pages import STEP_TIMEOUT, current_round, open_paired, round_is

pytestmark = pytest.mark.e2e
INFLUENCE = influence_hint("pursuit")  # the field's label names pursuit's own ids


def test_typing_survives_the_rounds_a_playing_pair_draws(server, browser, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1200})
    page = ctx.new_page()
    try:
        open_paired(page, f"{server.url}/?world=pursuit&seed=0")
        page.locator(".mam-play").click()
        box = page.get_by_label(INFLUENCE)
        box.fill("3")  # typed, not yet committed
        typed_at = current_round(page)
        page.wait_for_function(  # two redraws of the page since the text was typed
            "n => parseInt(document.querySelector('.mam-round').innerText.split(' ')[1]) >= n",
            arg=typed_at + 2,
            timeout=STEP_TIMEOUT,
        )
        assert box.input_value() == "3"
        page.screenshot(path=str(shots / "typing-while-playing.png"))

        box.press("Enter")  # committed: the pair is built again with three influence agents
        expect(page.locator(".mam-title")).to_contain_text("| 3 influence agents", timeout=STEP_TIMEOUT)
        round_is(page, 0)
        expect(page.locator(".mam-play")).to_have_text("Play")

        seed = page.get_by_label("seed")
        seed.fill("five")
        seed.press("Enter")  # not a number: said under the field, the pair stays as it was
        expect(page.locator(".mam-seed")).to_contain_text("expected a whole number", timeout=STEP_TIMEOUT)
        assert seed.input_value() == "five"
        expect(page.locator(".mam-title")).to_contain_text("seed 0 |")
        seed.fill("4")
        seed.press("Enter")
        expect(page.locator(".mam-title")).to_contain_text(
            "seed 4 | controller heuristic (auto) | 3 influence", timeout=STEP_TIMEOUT
        )
        expect(page.locator(".mam-seed")).not_to_contain_text("expected a whole number")
    finally:
        ctx.close()
