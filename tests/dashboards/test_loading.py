"""While the pair builds, the page says what it builds instead of staying blank."""

from __future__ import annotations

import threading
import time

import ipyvuetify as v
import pytest
import solara

from mam_bench.dashboards import paired
from mam_bench.dashboards.config import DashConfig


def widgets(root: object) -> list[object]:
    """Every widget under `root`, in page order."""
    children = getattr(root, "children", None) or []
    return [root] + [w for c in children if not isinstance(c, str) for w in widgets(c)]


def texts(box: object) -> list[str]:
    return [
        w.children[0] for w in widgets(box) if isinstance(w, v.Html) and w.children and isinstance(w.children[0], str)
    ]


def having(box: object, css: str) -> list[object]:
    return [w for w in widgets(box) if css in (getattr(w, "class_", None) or "").split()]


def test_the_page_names_the_pair_it_builds_until_the_pair_is_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    build = paired._make

    def held_build(cfg: DashConfig, run_dir: str | None) -> object:
        release.wait(300)
        return build(cfg, run_dir)

    monkeypatch.setattr(paired, "_make", held_build)
    cfg = DashConfig(world="schelling", seed=3)
    box, rc = solara.render(paired.PairedView(cfg, None), handle_error=False)
    try:
        assert len(having(box, "mam-loading")) == 1
        assert any(t.startswith("Building the pair (schelling, seed 3") for t in texts(box)), texts(box)
        assert having(box, "mam-round") == []
    finally:
        release.set()
    for _ in range(600):  # the build runs in its own thread; the page re-renders when it ends
        if having(box, "mam-round") and not having(box, "mam-loading"):
            break
        time.sleep(0.5)
    assert having(box, "mam-loading") == []
    assert any(t.startswith("round 0 /") for t in texts(box)), texts(box)
    rc.close()
