"""The GIF frame carries both boards, the running metric with the lift so far, and a legend."""

from __future__ import annotations

import numpy as np

from mam_bench.dashboards import animation
from mam_bench.runner import PairSpec, run_pair


def test_frames_carry_chart_lift_and_legend(tmp_path) -> None:
    spec = PairSpec.build(world="schelling", seed=22, controller="heuristic", rounds=4)
    run_pair(spec, tmp_path)
    frames = [np.asarray(f) for f in animation.frames(tmp_path)]
    assert len(frames) == 5
    top = animation.HEADER + animation.PANEL
    chart = slice(top, top + animation.CHART)
    legend = slice(top + animation.CHART, top + animation.CHART + animation.LEGEND)
    assert frames[0].shape[0] == top + animation.CHART + animation.LEGEND
    assert (frames[0][legend] < 200).any()  # something dark is drawn in the legend strip
    assert not np.array_equal(frames[1][chart], frames[4][chart])  # the metric runs on
    header = slice(0, animation.HEADER)
    assert not np.array_equal(frames[1][header], frames[4][header])  # round and values update


def test_legend_names_the_board_symbols_and_both_runs() -> None:
    from mam_bench.dashboards.config import DashConfig, build_session
    from mam_bench.dashboards.figures import board_keys

    s = build_session(DashConfig(world="schelling", seed=1))
    keys = [k.label for k in board_keys(s.state.treatment[0], s.state.info)]
    assert "vacancy" in keys and any("influence" in k for k in keys)
