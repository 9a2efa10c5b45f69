"""Small helpers that read and drive the paired view the way a user would."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

LOAD_TIMEOUT = 60_000
STEP_TIMEOUT = 30_000


def open_paired(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator(".mam-round")).to_be_visible(timeout=LOAD_TIMEOUT)


def round_is(page: Page, n: int) -> None:
    expect(page.locator(".mam-round")).to_have_text(re.compile(rf"^round {n} / \d+$"), timeout=STEP_TIMEOUT)


def step(page: Page, times: int = 1) -> None:
    start = current_round(page)
    for i in range(times):
        page.locator(".mam-step").click()
        round_is(page, start + i + 1)


def current_round(page: Page) -> int:
    return int(re.match(r"round (\d+)", page.locator(".mam-round").inner_text()).group(1))


def body_has_no_traceback(page: Page) -> None:
    text = page.inner_text("body")
    assert "Traceback" not in text and "Error:" not in text, text[:2000]
    assert page.locator(".mam-error").count() == 0, text[:2000]
    assert "This website runs on" not in text  # Solara's banner would cover the feed's last row


def boards_render(page: Page) -> None:
    for run in ("reference", "treatment"):
        img = page.locator(f".mam-board-{run} img")
        expect(img).to_be_visible(timeout=STEP_TIMEOUT)
        box = img.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, (run, box)


def lift_text(page: Page) -> str:
    return page.locator(".mam-lift").inner_text()


def overlapping_boxes(page: Page, selector: str) -> list[tuple[str, str]]:
    """Pairs of visible elements matching `selector` whose boxes overlap (texts run together)."""
    items = []
    for el in page.locator(selector).all():
        box = el.bounding_box()
        if box and box["width"] and box["height"]:
            items.append((el.inner_text(), box))
    out = []
    for i, (ta, a) in enumerate(items):
        for tb, b in items[i + 1 :]:
            if (
                a["x"] < b["x"] + b["width"] - 1
                and b["x"] < a["x"] + a["width"] - 1
                and a["y"] < b["y"] + b["height"] - 1
                and b["y"] < a["y"] + a["height"] - 1
            ):
                out.append((ta, tb))
    return out
