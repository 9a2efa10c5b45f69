"""Where a network world's nodes sit on its board: each connected component laid out on its own
(Kamada-Kawai, so distances on the page follow path lengths; a spring layout past a few hundred
nodes; a circle, in node order, past a thousand, where a spring layout would cost more than the
run), the largest on the left at full size and the smaller ones in a column beside it. One
spring layout of the whole graph lets stray nodes push the giant component into a knot in the
centre; this keeps its structure visible. Seeded: both runs of a pair draw the same board."""

from __future__ import annotations

from typing import Any

import numpy as np

#: above this many nodes a component gets a (cheaper) spring layout
KAMADA_KAWAI_MAX = 400
#: above this many a circle (linear time: a spring layout of 2,000 nodes takes 16 s, longer than
#: the pair it would draw; a small-world graph's ring lattice is drawn as the ring it is)
SPRING_MAX = 1000


def _component(graph: Any, order: Any) -> dict[Any, tuple[float, float]]:
    import networkx as nx

    n = graph.number_of_nodes()
    if n == 1:
        return {next(iter(graph.nodes)): (0.0, 0.0)}
    if n <= KAMADA_KAWAI_MAX:
        return nx.kamada_kawai_layout(graph)
    if n <= SPRING_MAX:
        return nx.spring_layout(graph, seed=0)
    nodes = [v for v in order if v in graph]  # the whole graph's node order (a view's may be a set's)
    angle = 2 * np.pi * np.arange(n) / n
    return dict(zip(nodes, zip(np.cos(angle).tolist(), np.sin(angle).tolist())))


def network_layout(graph: Any) -> dict[Any, tuple[float, float]]:
    """Node -> (x, y), rounded to 4 decimals: the giant component in [-1, 1]^2, the rest beside it."""
    import networkx as nx

    parts = sorted(nx.connected_components(graph), key=lambda c: (-len(c), min(map(str, c))))
    out: dict[Any, tuple[float, float]] = {}
    if not parts:
        return out
    rest = parts[1:]
    # the others: a column of cells to the right, each a small square (a stray node is one dot)
    side = max(1, int(len(rest) ** 0.5 + 0.999)) if rest else 0
    cell = 2.0 / max(side, 1)
    for k, nodes in enumerate(parts):
        pos = _component(graph.subgraph(nodes), graph)
        xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        if k == 0:
            scale, ox, oy = 2.0 / span, 0.0, 0.0
        else:
            i = k - 1
            scale = 0.8 * cell / span
            ox = 1.3 + cell * (i % side) + cell / 2
            oy = 1.0 - cell * (i // side) - cell / 2
        for node, (x, y) in pos.items():
            out[node] = (round(ox + (x - cx) * scale, 4), round(oy + (y - cy) * scale, 4))
    return out
