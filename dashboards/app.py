"""The Solara app `mam-bench dashboard` serves: the paired view and the landscape page.

Settings arrive through environment variables set by the command (world, recorded run,
landscape CSV); `?world=NAME&seed=N` in the address picks another world for one session.
"""

from __future__ import annotations

import os
import threading
import warnings
from urllib.parse import parse_qs

import solara

from mam_bench.dashboards.config import ENV_LANDSCAPE, ENV_RUN, ENV_SEAT, default_config
from mam_bench.dashboards.loading import Loading, pending
from mam_bench.dashboards.security import install_origin_check

install_origin_check()  # websocket handshakes from another origin (or `null`) are refused
# Solara asks for a samesite=none session cookie and, on plain http at 127.0.0.1, falls back to
# samesite=lax with a 14-line warning at every start; lax is what a local dashboard wants
warnings.filterwarnings("ignore", message="Cookies with samesite=none require https", category=UserWarning)


def _paired_view():
    from mam_bench.dashboards.paired import PairedView

    return PairedView


# matplotlib and the worlds load while the server starts, not while the first visitor waits
threading.Thread(target=_paired_view, daemon=True, name="mam-warm-up").start()


@solara.component
def Paired() -> None:
    router = solara.use_router()
    query = parse_qs(router.search or "")
    cfg = default_config()
    if "world" in query:
        cfg = cfg.with_(world=query["world"][0], seed=0)
    if "seed" in query and query["seed"][0].isdigit():  # anything else (?seed=abc) keeps the default
        cfg = cfg.with_(seed=int(query["seed"][0]))
    view = solara.use_thread(_paired_view, dependencies=[], intrusive_cancel=False)
    solara.Title("MAM-Bench: paired runs")
    if pending(view):
        Loading("Loading the paired view (Mesa, matplotlib and the worlds)...")
        return
    if view.error is not None:
        solara.Error(f"error: {type(view.error).__name__}: {view.error}", classes=["mam-error"])
        return
    if os.environ.get(ENV_SEAT):  # a person plays a benchmark: the pairs come from its seat file
        from mam_bench.dashboards.seat_view import SeatView

        SeatView(os.environ[ENV_SEAT], view.value)
        return
    view.value(cfg, os.environ.get(ENV_RUN) or None)


@solara.component
def Landscape() -> None:
    from mam_bench.dashboards.landscape import LandscapeView

    solara.Title("MAM-Bench: landscape")
    path = os.environ.get(ENV_LANDSCAPE)
    if not path:
        solara.Info("start with `mam-bench dashboard --landscape FILE.csv` (a CSV from `mam-bench landscape`)")
        return
    LandscapeView(path)


routes = [
    solara.Route(path="/", component=Paired, label="Paired runs"),
    solara.Route(path="landscape", component=Landscape, label="Landscape"),
]
