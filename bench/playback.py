"""How long the dashboard takes to play a pair, on the page's render path, beside stepping alone.

    python bench/playback.py [--world foraging] [--seed 0] [--speed 50]

Three timings of the same pair in one run (fresh sessions each): stepping both runs to the
end with no drawing (the floor), drawing every round (two boards and the chart as PNG, what
the page draws per frame), and the page's own play loop (`dashboards/playback.py`) at the speed
control's maximum, which draws only the frames it has time for. The play loop must play a
100-round pair in under 10 s; the ratios to the floor are the figures to compare across loaded
machines. The browser's own work (decoding the PNGs) is not counted.
"""

from __future__ import annotations

import argparse
import io
import threading
import time

from mam_bench.dashboards.config import DashConfig, build_session
from mam_bench.dashboards.figures import board_figure, metrics_figure
from mam_bench.dashboards.paired import MAX_SPEED
from mam_bench.dashboards.playback import play


def draw_frame(session) -> None:
    """The page's figures for the current round, encoded as the page encodes them (PNG)."""
    state = session.state
    for run, rows in (("reference", state.reference), ("treatment", state.treatment)):
        row = rows[-1]
        fig = board_figure(row, state.info, f"{run}: round {row['round']} ({row['status']})")
        fig.savefig(io.BytesIO(), format="png")
    metrics_figure(state).savefig(io.BytesIO(), format="png")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--world", default="foraging")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--speed", type=float, default=MAX_SPEED, help=f"rounds/s of the play loop (max {MAX_SPEED:g})")
    args = ap.parse_args(argv)
    cfg = DashConfig(world=args.world, seed=args.seed, controller=args.policy)

    session = build_session(cfg)
    started = time.perf_counter()
    while session.step():
        pass
    rounds, floor = session.state.round, time.perf_counter() - started
    session.close()

    session = build_session(cfg)
    started = time.perf_counter()
    draw_frame(session)
    while session.step():
        draw_frame(session)
    every = time.perf_counter() - started
    session.close()

    session = build_session(cfg)
    frames = [0]

    def frame() -> None:
        draw_frame(session)
        frames[0] += 1

    started = time.perf_counter()
    played = play(session, lambda: args.speed, threading.Lock(), frame, threading.Event())
    looped = time.perf_counter() - started
    session.close()

    print(f"{args.world} seed {args.seed}, policy {args.policy}: a {rounds}-round pair")
    print(f"stepping only (the floor): {floor:.2f} s = {rounds / floor:.1f} rounds/s")
    print(f"every round drawn: {every:.2f} s = {rounds / every:.1f} rounds/s ({every / floor:.2f}x the floor)")
    print(
        f"play loop at {args.speed:g} rounds/s: {played} rounds in {looped:.2f} s = {played / looped:.1f} rounds/s, "
        f"{frames[0]} frames drawn ({looped / floor:.2f}x the floor; {'under' if looped < 10 else 'OVER'} 10 s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
