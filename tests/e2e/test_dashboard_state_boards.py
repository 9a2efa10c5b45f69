"""Boards that show state: on a user-style world (an SIR epidemic with no renderer and no declared
state, registered through an entry point as a user's package would be) the two boards are the
same picture at round 0 and differ once the runs diverge, and the legend names the colours."""

from __future__ import annotations

import io
import shutil
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.e2e.conftest import DashboardServer, worker_log
from tests.e2e.pages import boards_render, body_has_no_traceback, open_paired, round_is, step

pytestmark = pytest.mark.e2e
WORLD_DIR = Path(__file__).resolve().parent / "user_world"


@pytest.fixture(scope="module")
def user_server(tmp_path_factory: pytest.TempPathFactory, shots: Path):
    """The user's module with its entry point in a dist-info, as `pip install -e .` would leave them
    (without building a venv), in the server's working folder: `python -m` puts that folder first on
    the path, so the world is found as an installed one is."""
    site = tmp_path_factory.mktemp("user-site")
    shutil.copy(WORLD_DIR / "sir.py", site / "sir.py")
    info = site / "user_epidemic-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: user-epidemic\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[mam_bench.worlds]\nepidemic = sir:registration\n")
    srv = DashboardServer("epidemic", log=worker_log(shots, "user-server"), cwd=site)
    yield srv
    srv.stop()


#: Solara fades its main content in over 0.5 s when the page mounts; on a loaded machine a capture
#: can land mid-fade (CI once read every dot at 60% opacity). This test stretches the fade so that
#: the case is always present, and captures with animations run to their end.
SLOW_FADE = """document.addEventListener('DOMContentLoaded', () => {
  const s = document.createElement('style');
  s.textContent = '.solara-content-main { animation-duration: 600s !important; }';
  document.head.appendChild(s);
});"""


def _colours(page, run: str) -> Counter:
    """Pixels per colour of the board image (the figure as the browser shows it, once settled)."""
    expect(page.locator(".solara-page-loading")).to_have_count(0)
    png = page.locator(f".mam-board-{run} img").screenshot(animations="disabled")
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return Counter(img.getdata())


def _state_pixels(counts: Counter, colours: list[tuple[int, int, int]]) -> list[int]:
    """Pixels per state colour, as the browser shows them: a dot's fill may come out lighter than
    its palette value (a fade, scaling), so a pixel value counts for the state colour whose hue it has;
    a state's fill is its most common such value (anti-aliased edges spread over many values)."""

    def hue_of(p: tuple[int, int, int]) -> int | None:
        spread = max(p) - min(p)
        if spread < 60:  # white, grey, black: background, axes and text
            return None
        dist = [sum((x / max(p) - y / max(c)) ** 2 for x, y in zip(p, c)) for c in colours]
        best = min(range(len(colours)), key=dist.__getitem__)
        return best if dist[best] < 0.15 else None

    fills = [0] * len(colours)  # the state's solid fill: its most common pixel value (edges are many values)
    for p, n in counts.items():
        k = hue_of(p)
        if k is not None:
            fills[k] = max(fills[k], n)
    return fills


def _close(a: list[int], b: list[int], share: float) -> bool:
    """Every state's pixel count within `share` of the other board's."""
    return all(abs(x - y) <= share * max(x, y, 1) for x, y in zip(a, b))


def _hex(c: str) -> tuple[int, int, int]:
    return tuple(int(c[i : i + 2], 16) for i in (1, 3, 5))


def test_user_world_boards_differ_once_runs_diverge(user_server, browser, shots: Path) -> None:
    from mam_bench.dashboards.generic_renderer import PALETTE

    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.add_init_script(SLOW_FADE)
    try:
        open_paired(page, f"{user_server.url}/?world=epidemic&seed=1")
        body_has_no_traceback(page)
        boards_render(page)
        round_is(page, 0)
        state = [_hex(c) for c in PALETTE[:3]]  # I, S (present at setup), then the palette's next
        ref0, tre0 = _colours(page, "reference"), _colours(page, "treatment")
        assert min(_state_pixels(ref0, state[:2])) > 0 and min(_state_pixels(tre0, state[:2])) > 0  # both drawn
        page.screenshot(path=str(shots / "epidemic-round0.png"), full_page=True, animations="disabled")
        step(page, 4)
        boards_render(page)
        ref, tre = _colours(page, "reference"), _colours(page, "treatment")
        page.screenshot(path=str(shots / "epidemic-round4.png"), full_page=True, animations="disabled")
        print("state pixels at round 4:", _state_pixels(ref, state[:2]), _state_pixels(tre, state[:2]))
        assert not _close(_state_pixels(ref, state[:2]), _state_pixels(tre, state[:2]), 0.10)
    finally:
        page.close()
