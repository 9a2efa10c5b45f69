"""The paired view: reference | treatment advancing in lockstep, lift card, chart, board feed.

All state lives in component hooks, so every browser session (its own Solara kernel) builds and
steps its own models; nothing is shared at module level.
"""

from __future__ import annotations

import threading
from typing import Any

import solara

from mam_bench.adapter import MesaWorld
from mam_bench.dashboards.config import DashConfig, build_session
from mam_bench.dashboards.feed import Feed
from mam_bench.dashboards.figures import RUN_COLOURS, board_figure, metrics_figure
from mam_bench.dashboards.loading import Loading, pending
from mam_bench.dashboards.playback import play
from mam_bench.dashboards.renderers import renderer_for
from mam_bench.dashboards.replay import ReplaySession
from mam_bench.errors import ConfigError
from mam_bench.numbers import signed

#: rounds per second: the default is watchable, the maximum plays a 100-round pair in 2 s of steps
DEFAULT_SPEED, MAX_SPEED = 4.0, 50.0


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
    return f"{v:+.2%}" if pct else signed(v)  # the console's and the report's form


#: boards and charts fill their column; the PNG is drawn large enough to stay sharp
CSS = """
.mam-board img, .mam-chart img { width: 100%; height: auto; max-width: 100%; }
.mam-lift-card .mam-line { display: block; margin: 2px 0; }
"""


@solara.component
def LiftCard(state: Any, version: int = 0, baselines: dict[str, dict[str, float | None]] | None = None) -> None:
    """The controller's lift, beside the lifts of `stay` and `mimic` on the same seed and settings
    (house rule: a lift is never shown alone), and both runs' values."""
    lift = state.lift()
    info = state.info
    m = info.primary
    ref, tre = state.reference[-1]["metrics"][m], state.treatment[-1]["metrics"][m]
    with solara.Card(
        f"Lift on {m} ({info.objective or 'objective'}) at round {state.round}", classes=["mam-lift-card"]
    ):
        solara.Text(
            f"delta {_fmt(lift['delta'])} | lift {_fmt(lift['lift'])} | relative {_fmt(lift['relative'], True)}",
            classes=["mam-lift", "mam-line"],
            style="font-size:16px;font-weight:bold",
        )
        if baselines:
            with solara.Row(gap="24px", style="flex-wrap:wrap"):
                solara.Text("same seed and settings:", classes=["mam-line"], style="font-size:13px")
                for name, b in baselines.items():
                    solara.Text(
                        f"{name} lift {_fmt(b['lift'])}" if b["lift"] is not None else f"{name}: n/a (no rule_action)",
                        classes=[f"mam-baseline-{name}", "mam-line"],
                        style="font-size:13px",
                    )
        with solara.Row(gap="24px", style="flex-wrap:wrap"):
            for run, value in (("reference", ref), ("treatment", tre)):
                solara.Text(
                    f"{run} {m} {value:.4f}",
                    classes=[f"mam-value-{run}", "mam-line"],
                    style=f"font-size:13px;color:{RUN_COLOURS[run]};font-weight:bold",
                )
        if info.world_cls is not None and issubclass(info.world_cls, MesaWorld):
            solara.Text(  # other threads of this server draw from `random`: a comparison would prove nothing
                "global random draws: not checked here (mam-bench run and check_world check them)",
                classes=["mam-draws-unchecked", "mam-line"],
                style="font-size:12px;color:#555",
            )


@solara.component
def BoardPanel(state: Any, run: str, rows: list[dict[str, Any]], version: int = 0) -> None:
    """One run's board; a component of its own so its memo is not a hook inside a loop."""
    row = rows[-1]
    title = f"{run}: round {row['round']} ({row['status']})"
    fig = solara.use_memo(lambda: board_figure(row, state.info, title), [id(state), run, len(rows), title])
    with solara.Column(
        classes=["mam-board", f"mam-board-{run}"],
        style=f"border-top:4px solid {RUN_COLOURS[run]};flex:1 1 0;min-width:0",
    ):
        solara.FigureMatplotlib(fig, format="png")


@solara.component
def MetricsChart(state: Any, version: int = 0) -> None:
    """Both runs' metrics; drawn again only when a round was played (not at every redraw)."""
    fig = solara.use_memo(lambda: metrics_figure(state), [id(state), len(state.treatment), len(state.reference)])
    with solara.Column(classes=["mam-chart"]):
        solara.FigureMatplotlib(fig, format="png")


@solara.component
def Boards(state: Any, version: int = 0) -> None:
    with solara.Row(style="width:100%;gap:16px;flex-wrap:nowrap"):
        BoardPanel(state, "reference", state.reference, version)
        BoardPanel(state, "treatment", state.treatment, version)


@solara.component
def PairedView(initial: DashConfig | None, run_dir: str | None = None) -> None:
    cfg, set_cfg_raw = solara.use_state(initial)
    version = solara.use_reactive(0)
    playing = solara.use_reactive(False)
    speed = solara.use_reactive(DEFAULT_SPEED)
    built = solara.use_thread(lambda: _make(cfg, run_dir), dependencies=[cfg, run_dir], intrusive_cancel=False)
    session, error = built.value if built.state == solara.ResultState.FINISHED else (None, None)
    solara.use_effect(lambda: lambda: _close(session), [session])
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
        if not playing.value or session is None:
            return

        def frame() -> None:
            version.value += 1

        play(session, lambda: speed.value, lock, frame, cancel, lambda: playing.value)
        if not cancel.is_set() and session.finished:
            playing.value = False

    solara.use_thread(play_loop, dependencies=[playing.value, session])
    human = getattr(session, "human", None)  # a person plays the influence agents (HumanSession)
    failed = solara.use_reactive("")

    def seat_loop(cancel: threading.Event) -> None:
        """Each round waits for the person; the page redraws when it opens and when it is played."""
        if human is None:
            return
        human.on_turn = lambda: version.set(version.value + 1)
        while not cancel.is_set() and not session.finished:
            try:
                session.step()
            except Exception as exc:  # noqa: BLE001 - said on the page, not raised into Solara
                if human.closed:  # the page left this session (a new one replaces it)
                    return
                failed.value = f"error: {type(exc).__name__}: {exc}"
                return
            if session.finished:  # otherwise the next round's turn redraws the page (once, not twice)
                version.value += 1

    solara.use_thread(seat_loop, dependencies=[session])
    _ = version.value  # re-render after every step

    if run_dir is None and cfg is not None and not cfg.spec:  # a benchmark's pair is not the person's to change
        from mam_bench.dashboards.controls import Controls

        with solara.Sidebar():
            Controls(cfg, set_cfg)
    if pending(built):
        what = "the recorded run" if run_dir else f"{cfg.world}, seed {cfg.seed}: reference, treatment, baselines"
        Loading(f"Building the pair ({what})...")
        return
    if session is None:
        solara.Error(error or "error: nothing to show", classes=["mam-error"])
        return
    state = session.state
    info = state.info
    auto = " (auto)" if cfg is not None and cfg.controller == "auto" else ""  # the side panel says auto too
    solara.Style(CSS)
    with solara.Column(style="width:100%"):
        with solara.Row(style="align-items:center;flex-wrap:wrap"):
            solara.Text(
                f"{info.world} | seed {info.seed} | controller {info.controller}{auto} | "
                f"{len(info.influence_ids)} influence agents",
                classes=["mam-title"],
                style="font-weight:bold",
            )
            solara.Text(f"round {state.round} / {info.horizon}", classes=["mam-round"], style="font-size:18px")
            solara.Text(
                f"reference {state.reference[-1]['status']} | treatment {state.treatment[-1]['status']}",
                classes=["mam-status"],
            )
        if failed.value:
            solara.Error(failed.value, classes=["mam-error"])
        if human is not None:  # the person plays the rounds: nothing to step or play
            from mam_bench.dashboards.human_panel import HumanPanel

            HumanPanel(session, version.value)
        else:
            with solara.Row(style="align-items:center;flex-wrap:wrap"):
                solara.Button("Step", on_click=step, disabled=session.finished or playing.value, classes=["mam-step"])
                solara.Button(
                    "Pause" if playing.value else "Play",
                    classes=["mam-play"],
                    on_click=lambda: playing.set(not playing.value),
                    disabled=session.finished,
                )
                solara.Button("Reset", on_click=reset, classes=["mam-reset"])
                with solara.Column(style="min-width:260px", classes=["mam-speed"]):
                    solara.SliderFloat("speed (rounds/s)", value=speed, min=0.5, max=MAX_SPEED, step=0.5)
        # `version` makes children re-render: the state object is the same, mutated in place
        lifts = session.baseline_lifts() if hasattr(session, "baseline_lifts") else None
        LiftCard(state, version.value, lifts)
        Boards(state, version.value)
        MetricsChart(state, version.value)
        Feed(state, version=version.value)
        extras = getattr(renderer_for(info.world), "Extras", None)
        if extras is not None:
            extras(state, version=version.value)
