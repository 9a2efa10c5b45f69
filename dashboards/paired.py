"""The paired view: reference | treatment advancing in lockstep, lift card, chart, board feed.

All state lives in component hooks, so every browser session (its own Solara kernel) builds and
steps its own models; nothing is shared at module level.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import solara

from mam_bench.dashboards.config import DashConfig, build_session
from mam_bench.dashboards.feed import Feed
from mam_bench.dashboards.figures import RUN_COLOURS, board_figure, metrics_figure
from mam_bench.dashboards.replay import ReplaySession
from mam_bench.dashboards.worlds import renderer_for
from mam_bench.errors import ConfigError


def _close(session: Any) -> None:
    close = getattr(session, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # noqa: BLE001 - cleanup must never break the page
            pass


def _make(cfg: DashConfig | None, run_dir: str | None) -> tuple[Any, str | None]:
    """A session or a one-line error for the page (never a traceback)."""
    try:
        return (ReplaySession(run_dir) if run_dir else build_session(cfg)), None
    except ConfigError as exc:
        return None, f"error: {exc}"
    except Exception as exc:  # a world or controller that cannot start is reported, not raised
        return None, f"error: {type(exc).__name__}: {exc}"


def _fmt(v: float | None, pct: bool = False) -> str:
    if v is None:
        return "n/a"
    return f"{v:+.2%}" if pct else f"{v:+.4f}"


@solara.component
def LiftCard(state: Any, version: int = 0) -> None:
    lift = state.lift()
    info = state.info
    m = info.primary
    ref, tre = state.reference[-1]["metrics"][m], state.treatment[-1]["metrics"][m]
    with solara.Card(f"Lift on {m} ({info.objective or 'objective'}) at round {state.round}", classes=["mam-lift-card"]):
        solara.Text(f"delta {_fmt(lift['delta'])} | lift {_fmt(lift['lift'])} | relative {_fmt(lift['relative'], True)}",
                    classes=["mam-lift"], style="font-size:16px;font-weight:bold")
        solara.Text(f"reference {ref:.4f} | treatment {tre:.4f}", style="font-size:12px")


@solara.component
def Boards(state: Any, version: int = 0) -> None:
    info = state.info
    with solara.Columns([1, 1]):
        for run, rows in (("reference", state.reference), ("treatment", state.treatment)):
            row = rows[-1]
            title = f"{run}: round {row['round']} ({row['status']})"
            fig = solara.use_memo(lambda rows=rows, run=run, title=title: board_figure(rows[-1], info, title),
                                  [id(state), run, len(rows), title])
            with solara.Column(classes=[f"mam-board-{run}"], style=f"border-top:4px solid {RUN_COLOURS[run]}"):
                solara.FigureMatplotlib(fig, format="png")


@solara.component
def PairedView(initial: DashConfig | None, run_dir: str | None = None) -> None:
    cfg, set_cfg_raw = solara.use_state(initial)
    version = solara.use_reactive(0)
    playing = solara.use_reactive(False)
    speed = solara.use_reactive(2.0)
    session, error = solara.use_memo(lambda: _make(cfg, run_dir), [cfg, run_dir])
    solara.use_effect(lambda: (lambda: _close(session)), [session])
    lock = solara.use_memo(threading.Lock, [])

    def set_cfg(new: DashConfig) -> None:
        playing.value = False
        set_cfg_raw(new)

    def step() -> None:
        if session is None:
            return
        with lock:
            session.step()
        version.value += 1

    def reset() -> None:
        playing.value = False
        if session is not None:
            with lock:
                session.reset()
        version.value += 1

    def play_loop(cancel: threading.Event) -> None:
        due = time.monotonic()
        while playing.value and session is not None and not cancel.is_set():
            # keep the chosen pace: the time spent drawing the last frame counts toward the wait
            due += 1.0 / max(speed.value, 0.1)
            if cancel.wait(max(0.0, due - time.monotonic())):
                return
            due = max(due, time.monotonic() - 1.0)
            with lock:
                advanced = session.step()
            version.value += 1
            if not advanced:
                playing.value = False
                return

    solara.use_thread(play_loop, dependencies=[playing.value, session])
    _ = version.value  # re-render after every step

    if run_dir is None and cfg is not None:
        from mam_bench.dashboards.controls import Controls

        with solara.Sidebar():
            Controls(cfg, set_cfg)
    if session is None:
        solara.Error(error or "error: nothing to show", classes=["mam-error"])
        return
    state = session.state
    info = state.info
    with solara.Column():
        with solara.Row(style="align-items:center;flex-wrap:wrap"):
            solara.Text(f"{info.world} | seed {info.seed} | controller {info.policy} | "
                        f"{len(info.influence_ids)} influence agents", classes=["mam-title"], style="font-weight:bold")
            solara.Text(f"round {state.round} / {info.horizon}", classes=["mam-round"], style="font-size:18px")
            solara.Text(f"reference {state.reference[-1]['status']} | treatment {state.treatment[-1]['status']}",
                        classes=["mam-status"])
        with solara.Row(style="align-items:center;flex-wrap:wrap"):
            solara.Button("Step", on_click=step, disabled=session.finished or playing.value, classes=["mam-step"])
            solara.Button("Pause" if playing.value else "Play", classes=["mam-play"],
                          on_click=lambda: playing.set(not playing.value), disabled=session.finished)
            solara.Button("Reset", on_click=reset, classes=["mam-reset"])
            with solara.Column(style="min-width:220px"):
                solara.FloatSlider("speed (rounds/s)", value=speed, min=0.5, max=10, step=0.5)
        # `version` makes children re-render: the state object is the same, mutated in place
        LiftCard(state, version.value)
        Boards(state, version.value)
        solara.FigureMatplotlib(metrics_figure(state), format="png")
        Feed(state, version=version.value)
        extras = getattr(renderer_for(info.world), "Extras", None)
        if extras is not None:
            extras(state, version=version.value)
