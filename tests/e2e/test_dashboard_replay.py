"""Acceptance 3: a recorded Schelling run with LLM-style posts replays without a model, and the
feed shows each post beside the action and its outcome, with the recorded mismatch flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from mam_bench.records import read_jsonl
from tests.e2e.pages import boards_render, body_has_no_traceback, open_paired, step

pytestmark = pytest.mark.e2e


def test_replay_shows_posts_actions_and_mismatch(replay_server, recorded_run: Path, browser, shots: Path) -> None:
    decisions = read_jsonl(recorded_run / "decisions.jsonl")
    flagged = next(d for d in decisions if d["mismatch"])
    assert flagged["round"] == 0
    ctx = browser.new_context(viewport={"width": 1400, "height": 1800})
    page = ctx.new_page()
    try:
        open_paired(page, replay_server.url + "/")
        expect(page.locator(".mam-title")).to_contain_text("replay of custom:scripted-llm")  # recorded by its own name
        step(page, 1)
        body_has_no_traceback(page)
        boards_render(page)
        feed = page.locator(".mam-feed")
        expect(feed).to_contain_text(flagged["post"])
        row = page.locator(".mam-mismatch").first
        expect(row).to_contain_text(f"#{flagged['actor_id']}")
        expect(row).to_contain_text(flagged["post"])
        expect(row).to_contain_text("stay MISMATCH")
        honest = next(d for d in decisions if d["round"] == 0 and not d["mismatch"])
        target = f"-> {honest['action']['row']},{honest['action']['col']}"
        honest_row = page.locator(".mam-post", has_text=honest["post"]).first
        expect(honest_row).to_contain_text(target)
        expect(honest_row).to_contain_text("accepted")
        page.locator(".mam-feed").screenshot(path=str(shots / "replay-feed.png"))
        page.screenshot(path=str(shots / "replay.png"), full_page=True)
        result = json.loads((recorded_run / "result.json").read_text())
        assert result["treatment"]["audit"]["mismatches"] >= 1
    finally:
        ctx.close()
