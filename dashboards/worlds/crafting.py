"""Crafting renderer: the map with sites and agents, inventories, and the supply-chain graph of
productive actions (networkx) with the CCE-contributing ones (ancestors of crafts) highlighted."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import solara
from matplotlib.axes import Axes
from matplotlib.figure import Figure

PRODUCTIVE = ("harvest", "craft", "transfer")


def _sites(row: dict[str, Any]) -> list[str]:
    names = {a.get("site") for a in row.get("agents") or []} | {a.get("site") for a in row.get("actions") or []}
    return sorted(n for n in names if n)


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    """Sites on a circle, each agent a dot beside its site (red ring = influence agent)."""
    sites = _sites(row) or ["?"]
    at = {s: (math.cos(2 * math.pi * i / len(sites)), math.sin(2 * math.pi * i / len(sites))) for i, s in enumerate(sites)}
    for s, (x, y) in at.items():
        ax.scatter([x], [y], s=900, c="#eceff1", edgecolors="#607d8b", zorder=1)
        ax.text(x, y - 0.28, s, ha="center", fontsize=8)
    influence = set(info.influence_ids)
    by_site: dict[str, int] = {}
    for a in row.get("agents") or []:
        s = a.get("site") or "?"
        k = by_site.get(s, 0)
        by_site[s] = k + 1
        x, y = at.get(s, (0, 0))
        dx, dy = 0.12 * math.cos(k * 1.3), 0.12 * math.sin(k * 1.3)
        held = sum((a.get("inv") or {}).values())
        ax.scatter([x + dx], [y + dy], s=140 + 25 * min(held, 10), c="#1e88e5" if held else "#90caf9",
                   edgecolors="#d50000" if a["id"] in influence else "k", linewidths=2 if a["id"] in influence else 0.5, zorder=3)
        ax.text(x + dx, y + dy, str(a["id"]), ha="center", va="center", fontsize=6, color="white", zorder=4)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.5, 1.5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])


def supply_chain(rows: list[dict[str, Any]]) -> tuple[nx.DiGraph, set[int]]:
    """Productive actions seen so far, linked by their parents; the ancestors of successful crafts."""
    g = nx.DiGraph()
    for row in rows:
        for a in row.get("actions") or []:
            if a.get("tool") in PRODUCTIVE and a.get("ok"):
                g.add_node(a["id"], **a)
                for p in a.get("parents") or []:
                    g.add_edge(p, a["id"])
    crafts = [n for n, d in g.nodes(data=True) if d.get("tool") == "craft"]
    hot: set[int] = set(crafts)
    for n in crafts:
        hot |= nx.ancestors(g, n)
    return g, hot


def chain_figure(rows: list[dict[str, Any]]) -> Figure:
    g, hot = supply_chain(rows)
    fig = Figure(figsize=(7, 4), dpi=80)
    ax = fig.add_subplot()
    if g.number_of_nodes():
        layers = {n: g.nodes[n].get("round", 0) for n in g.nodes}
        for n in g.nodes:
            g.nodes[n]["layer"] = layers[n]
        pos = nx.multipartite_layout(g, subset_key="layer")
        colours = ["#d32f2f" if n in hot else "#b0bec5" for n in g.nodes]
        nx.draw_networkx(g, pos, ax=ax, node_color=colours, node_size=120, font_size=6, arrowsize=8,
                         labels={n: f"{g.nodes[n].get('tool', '?')[0]}{g.nodes[n].get('agent', '')}" for n in g.nodes})
    ax.set_title(f"supply chain: {g.number_of_nodes()} productive actions, {len(hot)} CCE-contributing (red)", fontsize=9)
    ax.axis("off")
    return fig


@solara.component
def Extras(state: Any, version: int = 0) -> None:
    row = state.treatment[-1]
    with solara.Card("Inventories (treatment)", classes=["mam-inventories"]), solara.Column(gap="2px"):
        for a in row.get("agents") or []:
            inv = ", ".join(f"{k} {v}" for k, v in sorted((a.get("inv") or {}).items())) or "empty"
            solara.Text(f"#{a['id']} at {a.get('site')}: {inv}; equipped {', '.join(a.get('eq') or []) or '-'}",
                        style="font-size:12px")
        if row.get("checkpoints"):
            solara.Text(str(row["checkpoints"]), style="font-size:12px;font-weight:bold")
    with solara.Card("Supply chain (treatment)", classes=["mam-supply-chain"]):
        solara.FigureMatplotlib(chain_figure(state.treatment), format="png")
