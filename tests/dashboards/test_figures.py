"""Figures a researcher would screenshot: a legend on every board and chart, no text overlapping
or clipped, axes that fit the metric, and crafting sites that never move."""

from __future__ import annotations

import pytest

from mam_bench.dashboards.config import DashConfig, available_worlds, build_session
from mam_bench.dashboards.figures import board_figure, is_share, metrics_figure
from mam_bench.dashboards.renderers import renderer_for
from tests.dashboards.figure_checks import clipped_texts, legend_labels, overlapping_texts

ROUNDS = 4


@pytest.fixture(scope="module", params=available_worlds())
def stepped(request):
    s = build_session(DashConfig(world=request.param, seed=3))
    for _ in range(ROUNDS):
        s.step()
    return s


def test_boards_have_a_legend_and_no_overlapping_text(stepped) -> None:
    state = stepped.state
    for run, rows in (("reference", state.reference), ("treatment", state.treatment)):
        fig = board_figure(rows[-1], state.info, f"{run}: round {rows[-1]['round']} ({rows[-1]['status']})")
        labels = legend_labels(fig)
        assert labels, f"{state.info.world} {run} board has no legend"
        if state.info.influence_ids:
            assert any("influence" in label for label in labels), labels
        assert overlapping_texts(fig) == []
        assert clipped_texts(fig) == []


def test_metrics_chart_has_a_legend_and_no_overlapping_text(stepped) -> None:
    fig = metrics_figure(stepped.state)
    labels = legend_labels(fig)
    assert any(label.startswith("reference") for label in labels)
    assert any(label.startswith("treatment") for label in labels)
    assert overlapping_texts(fig) == []
    assert clipped_texts(fig) == []


def test_schelling_legend_names_groups_dimmed_agents_and_vacancies() -> None:
    s = build_session(DashConfig(world="schelling", seed=3))
    labels = " | ".join(legend_labels(board_figure(s.state.treatment[-1], s.state.info, "t")))
    for word in ("group A", "group B", "dissatisfied", "vacancy", "influence"):
        assert word in labels, labels


def test_a_count_gets_no_percent_axis() -> None:
    assert not is_share([0.0, 1.0, 3.0])
    assert not is_share([0.0, 0.0, 1.0])  # a count of 0 or 1 is still a count
    assert is_share([0.0, 0.25, 1.0])


def test_foraging_count_axis_is_not_percent() -> None:
    s = build_session(DashConfig(world="foraging", seed=3))
    for _ in range(3):
        s.step()
    ax = metrics_figure(s.state).axes[0]
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert not any("%" in t for t in ticks), ticks


def test_crafting_sites_stay_put_in_both_panels_and_across_rounds() -> None:
    """Site centres as drawn (the scatter offsets of the site discs) equal in every panel and round."""
    from mam_bench.models.crafting.renderer import SITE_FACE

    s = build_session(DashConfig(world="crafting", seed=3))
    drawn = []
    for _ in range(6):
        for rows in (s.state.reference, s.state.treatment):
            fig = board_figure(rows[-1], s.state.info, "x")
            ax = fig.axes[0]
            centres = {
                tuple(map(float, o))
                for coll in ax.collections
                if len(coll.get_facecolors()) and _hex(coll.get_facecolors()[0]) == SITE_FACE
                for o in coll.get_offsets()
            }
            names = sorted(t.get_text() for t in ax.texts if t.get_fontsize() == 10)
            drawn.append((frozenset(centres), tuple(names)))
        s.step()
    assert len(drawn[0][0]) >= 5  # every site of the map, not only the sites in use
    assert all(d == drawn[0] for d in drawn), drawn


def test_feed_shows_policy_error_reasons_and_hides_empty_fields() -> None:
    from types import SimpleNamespace

    from mam_bench.dashboards.feed import action_text, round_html

    assert action_text({"action": "UP", "message": None}) == "action=UP"
    state = SimpleNamespace(
        facts={},
        feed=[
            {
                "round": 0,
                "actor_id": 3,
                "post": None,
                "action": {"action": "STAY"},
                "outcome": "policy_error",
                "error": "row: 99 is off the board",
            }
        ],
    )
    assert "row: 99 is off the board" in round_html(state, 0)


def _hex(rgba) -> str:
    return "#" + "".join(f"{round(float(x) * 255):02x}" for x in rgba[:3])


def test_renderer_modules_offer_a_legend() -> None:
    for world in available_worlds():
        assert callable(getattr(renderer_for(world), "legend", None)), world
