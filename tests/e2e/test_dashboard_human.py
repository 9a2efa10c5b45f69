"""A person plays a Schelling pair in real Chromium (`mam-bench dashboard --policy human`): cells
clicked on the agent's board, one occupied cell refused on the page with its reason, a board post,
a stay by key, to the horizon; the folder then replays
with `--policy replay` to the same records. Swarm (keys, buttons) and crafting (menu, JSON) too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mam_bench.records import read_jsonl
from tests.e2e.conftest import ROOT, DashboardServer, worker_log
from tests.e2e.pages import LOAD_TIMEOUT, STEP_TIMEOUT, body_has_no_traceback

pytestmark = pytest.mark.e2e
ROUNDS = 3


def turn_is(page: Page, r: int) -> None:
    expect(page.locator(".mam-turn")).to_contain_text(f"round {r}:", timeout=STEP_TIMEOUT)


def click_empty(page: Page) -> float:
    """Click the first empty cell; returns how long the page took to mark it (printed, not judged)."""
    cell = page.locator(".mam-grid .mam-empty").first
    started = time.perf_counter()
    cell.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.mam-grid .mam-cell')].some(e => e.style.outline.includes('solid'))",
        timeout=STEP_TIMEOUT,
    )
    return time.perf_counter() - started


def strip(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "_chain"} for r in rows]


@contextmanager
def seated(browser, world: str, out: Path, shots: Path, seed: int = 0, rounds: int = 2) -> Iterator[Page]:
    """A person's seat: the human dashboard's server and a page open on it, closed and stopped
    whatever the test did."""
    server = DashboardServer(
        world, "--policy", "human", "--seed", str(seed), "--rounds", str(rounds), "--out", str(out),
        log=worker_log(shots, f"human-{world}-server"),
    )  # fmt: skip
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        yield page
    finally:
        ctx.close()
        server.stop()


def test_a_person_plays_schelling_to_the_horizon_and_the_folder_replays(browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / "human"
    acks, draws = [], []
    with seated(browser, "schelling", out, shots, seed=3, rounds=ROUNDS) as page:
        expect(page.locator(".mam-turn")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.locator(".mam-title")).to_contain_text("controller human")
        agents = page.locator(".mam-agent").count()
        assert agents >= 2
        turn_is(page, 0)
        expect(page.locator(".mam-prompt")).to_contain_text("round 0 | you")  # what an LLM is given
        page.screenshot(path=str(shots / "human-schelling-first-round.png"))

        # an occupied cell: refused, with the world's reason, and nothing is taken
        page.locator(".mam-grid .mam-taken:not(.mam-me)").first.click()
        expect(page.locator(".mam-refused")).to_contain_text("occupied", timeout=STEP_TIMEOUT)
        expect(page.locator(".mam-turn")).to_contain_text("0 / ")

        for r in range(ROUNDS):
            turn_is(page, r)
            post = page.locator(f".mam-post-round-{r} input")  # this round's field, not the last one's
            post.fill(f"round {r}: moving to the first empty cell")
            post.press("Enter")
            expect(page.locator(".mam-post-kept")).to_be_visible(timeout=STEP_TIMEOUT)
            acks.append(click_empty(page))
            expect(page.locator(".mam-turn")).to_contain_text(f"1 / {agents}", timeout=STEP_TIMEOUT)
            for _ in range(agents - 2):  # the others stay, by key (focus outside the text field)
                page.locator(".mam-turn").click()
                page.keyboard.press("s")
            expect(page.locator(".mam-turn")).to_contain_text(f"{agents - 1} / {agents}", timeout=STEP_TIMEOUT)
            page.keyboard.press("s")  # the last agent: the round is played
            played = time.perf_counter()
            if r < ROUNDS - 1:
                turn_is(page, r + 1)
                draws.append(time.perf_counter() - played)
            else:
                expect(page.locator(".mam-seat-done")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.locator(".mam-round")).to_have_text(f"round {ROUNDS} / {ROUNDS}")
        body_has_no_traceback(page)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / "human-schelling-finished.png"))
        print(f"click acknowledged in {', '.join(f'{a * 1000:.0f} ms' for a in acks)}")
        print(f"next round's turn drawn {', '.join(f'{d * 1000:.0f} ms' for d in draws)} after the last key")

    result = json.loads((out / "result.json").read_text())
    assert result["controller"]["name"] == "human" and result["treatment"]["rounds"] == ROUNDS
    decisions = read_jsonl(out / "decisions.jsonl")
    assert len(decisions) == agents * ROUNDS
    posts = [d["post"] for d in decisions if d["post"]]
    assert posts == [f"round {r}: moving to the first empty cell" for r in range(ROUNDS)]
    assert {d["outcome"] for d in decisions} >= {"stay"}

    replays_alike(out, tmp_path / "replayed", "schelling", "3", ROUNDS)


def replays_alike(out: Path, again: Path, world: str, seed: str, rounds: int) -> None:
    """`mam-bench run --policy replay` on the folder writes the same decisions and treatment."""
    result = json.loads((out / "result.json").read_text())
    ids = ",".join(str(i) for i in result["influence_ids"])
    subprocess.run(
        [sys.executable, "-m", "mam_bench", "run", world, "--seed", seed, "--rounds", str(rounds),
         "--influence-ids", ids, "--policy", "replay", "--replay", str(out), "--out", str(again)],
        cwd=ROOT, check=True, capture_output=True, env=dict(os.environ),
    )  # fmt: skip
    assert strip(read_jsonl(again / "decisions.jsonl")) == strip(read_jsonl(out / "decisions.jsonl"))
    assert strip(read_jsonl(again / "treatment.jsonl")) == strip(read_jsonl(out / "treatment.jsonl"))


def test_a_person_plays_a_swarm_task_by_key_and_by_button(browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / "human"
    with seated(browser, "pursuit", out, shots) as page:
        turn_is(page, 0)
        assert page.locator(".mam-agent").count() == 2
        page.locator(".mam-turn").click()
        page.keyboard.press("ArrowUp")  # agent 0 moves up
        expect(page.locator(".mam-turn")).to_contain_text("1 / 2", timeout=STEP_TIMEOUT)
        page.locator(".mam-menu-item", has_text='action="RIGHT"').click()  # agent 1, by button
        turn_is(page, 1)
        page.screenshot(path=str(shots / "human-pursuit.png"))
        page.locator(".mam-turn").click()
        page.keyboard.press("l")  # both repeat last round's move
        expect(page.locator(".mam-turn")).to_contain_text("1 / 2", timeout=STEP_TIMEOUT)
        page.keyboard.press("l")
        expect(page.locator(".mam-seat-done")).to_be_visible(timeout=LOAD_TIMEOUT)
        body_has_no_traceback(page)
    decisions = sorted(read_jsonl(out / "decisions.jsonl"), key=lambda d: (d["round"], d["actor_id"]))
    assert [d["decision"]["action"] for d in decisions] == ["UP", "RIGHT", "UP", "RIGHT"]
    assert [row["how"] for row in read_jsonl(out / "human.jsonl")] == ["pick", "pick", "same", "same"]
    replays_alike(out, tmp_path / "replayed", "pursuit", "0", 2)


def test_a_person_plays_crafting_from_its_menu(browser, shots: Path, tmp_path: Path) -> None:
    out = tmp_path / "human"
    with seated(browser, "crafting", out, shots) as page:
        turn_is(page, 0)
        page.locator(".mam-menu").click()  # agent 0: from the drop-down of its legal actions
        page.locator(".v-menu__content .v-list-item", has_text='tool="move_to"').first.click()
        expect(page.locator(".mam-turn")).to_contain_text("1 / 2", timeout=STEP_TIMEOUT)
        expect(page.locator(".mam-seat")).to_contain_text("given as agent 1", timeout=STEP_TIMEOUT)
        typed = page.locator(".mam-json input")  # agent 1: an answer the world cannot read, then one it can
        typed.fill("craft everything")
        typed.press("Enter")
        expect(page.locator(".mam-refused")).to_be_visible(timeout=STEP_TIMEOUT)
        typed.fill('{"tool": "sleep"}')
        typed.press("Enter")
        turn_is(page, 1)
        page.screenshot(path=str(shots / "human-crafting.png"))
        page.locator(".mam-stay").click()  # by button this time, then by key
        expect(page.locator(".mam-turn")).to_contain_text("1 / 2", timeout=STEP_TIMEOUT)
        page.locator(".mam-turn").click()
        page.keyboard.press("s")
        expect(page.locator(".mam-seat-done")).to_be_visible(timeout=LOAD_TIMEOUT)
        body_has_no_traceback(page)
    first = {d["actor_id"]: d["decision"] for d in read_jsonl(out / "decisions.jsonl") if d["round"] == 0}
    assert first[0]["tool"] == "move_to" and first[1] == {"tool": "sleep"}
    replays_alike(out, tmp_path / "replayed", "crafting", "0", 2)
