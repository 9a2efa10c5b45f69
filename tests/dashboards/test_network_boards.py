"""A network board keeps its structure visible, and a registered portrayal's legend still names
the states its colours stand for."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx

from mam_bench.dashboards.generic_renderer import portrayal_legend
from mam_bench.network_layout import network_layout


def test_the_giant_component_fills_the_board_and_strays_sit_beside_it() -> None:
    graph = nx.watts_strogatz_graph(40, 4, 0.1, seed=1)
    graph.add_nodes_from(range(100, 115))  # stray nodes, which one spring layout pushes outward
    pos = network_layout(graph)
    assert set(pos) == set(graph.nodes)
    giant = [pos[n] for n in range(40)]
    xs, ys = [p[0] for p in giant], [p[1] for p in giant]
    assert max(max(xs) - min(xs), max(ys) - min(ys)) >= 1.99  # full size, not a knot in the centre
    assert all(pos[n][0] > max(xs) for n in range(100, 115))  # beside it, not around it
    assert network_layout(graph) == pos  # both runs of a pair draw the same board


def test_a_portrayal_legend_names_the_states_behind_its_colours() -> None:
    row = {
        "state": {"attribute": "opinion"},
        "agents": [{"id": i, "opinion": i % 2, "board_state": i % 2, "xy": [i, 0]} for i in range(1, 7)],
    }

    def portrayal(agent):
        return {"color": "tab:orange" if agent.opinion else "tab:blue"}

    keys = portrayal_legend(row, SimpleNamespace(influence_ids=(1,)), portrayal)
    labels = {k.label: k.face for k in keys}
    assert labels["opinion 1"] == "tab:orange" and labels["opinion 0"] == "tab:blue", labels
    assert "influence agent (ringed)" in labels
