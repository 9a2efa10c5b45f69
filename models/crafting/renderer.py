"""Crafting renderer: the map with sites and agents, inventories, and the supply-chain graph of
productive actions (networkx) with the CCE-contributing ones (ancestors of crafts) highlighted."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import networkx as nx
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from mam_bench.dashboards.legend import Key, add_legend
from mam_bench.dashboards.ui import component, solara

PRODUCTIVE = ("harvest", "craft", "transfer")


SITE_FACE, SITE_EDGE = "#eceff1", "#607d8b"
HOLDING, EMPTY_HANDED, INFLUENCE_EDGE = "#1e88e5", "#90caf9", "#d50000"
#: the map is the world's 24 x 24 grid; sites keep their catalog coordinates in every panel and round
EXTENT = 24
ORBIT = 1.9


@lru_cache(maxsize=1)
def catalog_sites() -> dict[str, tuple[float, float]]:
    try:
        from mam_bench.models.crafting.catalog import catalog

        return {k: (float(x), float(y)) for k, (x, y) in catalog().sites.items()}
    except Exception:  # a replay must draw even when the world does not import
        return {}


def site_positions(row: dict[str, Any], info: Any = None) -> dict[str, tuple[float, float]]:
    """Every site's map position: catalog coordinates, unknown sites in a fixed row along the bottom."""
    at = dict(catalog_sites())
    seen = {a.get("site") for a in row.get("agents") or []} | {a.get("site") for a in row.get("actions") or []}
    for k, name in enumerate(sorted(n for n in seen if n and n not in at)):
        at[name] = (2.0 + 4.0 * k, EXTENT - 1.0)
    return at


#: room around the outermost sites for their disc, agent ring and name (cave, grove and ruins sit
#: on the map's edge)
MARGIN = ORBIT + 1.8


def board_limits(at: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """One square extent holding the whole map and every site with its ring and label."""
    coords = [v for xy in at.values() for v in xy] or [0.0, float(EXTENT)]
    return min(-1.0, min(coords) - MARGIN), max(float(EXTENT), max(coords) + MARGIN)


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    keys = [
        Key("site", SITE_FACE, SITE_EDGE, marker="o", size=12),
        Key("holding items", HOLDING, "k", marker="o", width=0.5),
        Key("empty-handed", EMPTY_HANDED, "k", marker="o", width=0.5),
    ]
    if info.influence_ids:
        keys.append(Key("influence agent", "white", INFLUENCE_EDGE, marker="o", width=2.0))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    """Sites at their map coordinates, each agent a numbered dot on a ring around its site."""
    at = site_positions(row, info)
    for s, (x, y) in at.items():
        ax.scatter([x], [y], s=2600, c=SITE_FACE, edgecolors=SITE_EDGE, zorder=1)
        ax.text(x, y - ORBIT - 0.7, s, ha="center", va="bottom", fontsize=10, color="#37474f")
    influence = set(info.influence_ids)
    agents = row.get("agents") or []
    # an agent on its way between sites (travel on the grid: no site, its cell in "xy") is drawn at
    # its own cell, not at the map centre where it would sit on top of the town's ring
    per_site: dict[Any, list[dict[str, Any]]] = {}
    for a in agents:
        xy = a.get("xy")
        key = a.get("site") or (tuple(float(v) for v in xy) if xy else "?")
        per_site.setdefault(key, []).append(a)
    for s, group in per_site.items():
        x, y = s if isinstance(s, tuple) else at.get(s, (EXTENT / 2, EXTENT / 2))
        for k, a in enumerate(sorted(group, key=lambda a: a["id"])):
            angle = math.pi / 2 + 2 * math.pi * k / max(len(group), 1)
            ring = ORBIT if len(group) > 1 else 0.0
            ax_, ay = x + ring * math.cos(angle), y + ring * math.sin(angle)
            held = sum((a.get("inv") or {}).values())
            mine = a["id"] in influence
            ax.scatter(
                [ax_],
                [ay],
                s=190,
                c=HOLDING if held else EMPTY_HANDED,
                edgecolors=INFLUENCE_EDGE if mine else "k",
                linewidths=2.2 if mine else 0.5,
                zorder=3,
            )
            ax.text(
                ax_,
                ay,
                str(a["id"]),
                ha="center",
                va="center",
                fontsize=8,
                fontweight="bold",
                color="white" if held else "black",
                zorder=4,
            )
    lo, hi = board_limits(at)
    ax.set_xlim(lo, hi)
    ax.set_ylim(hi, lo)
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


TOOL_LETTERS = {"harvest": "h", "craft": "c", "transfer": "t"}


def chain_figure(rows: list[dict[str, Any]], title: str = "supply chain") -> Figure:
    """Productive actions by round (left to right), labelled tool letter + agent id."""
    g, hot = supply_chain(rows)
    fig = Figure(figsize=(9, 4.4), dpi=100)
    ax = fig.add_axes((0.02, 0.18, 0.96, 0.72))
    if g.number_of_nodes():
        for n in g.nodes:
            g.nodes[n]["layer"] = g.nodes[n].get("round", 0)
        pos = nx.multipartite_layout(g, subset_key="layer")
        colours = ["#d32f2f" if n in hot else "#b0bec5" for n in g.nodes]
        labels = {n: f"{TOOL_LETTERS.get(g.nodes[n].get('tool'), 'x')}{g.nodes[n].get('agent', '')}" for n in g.nodes}
        nx.draw_networkx(g, pos, ax=ax, node_color=colours, node_size=220, font_size=7, arrowsize=8, labels=labels)
    else:
        ax.text(0.5, 0.5, "no productive action yet", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(f"{title}: {g.number_of_nodes()} productive actions, {len(hot)} CCE-contributing", fontsize=10)
    ax.axis("off")
    add_legend(
        fig,
        [
            Key("contributes to a craft (CCE)", "#d32f2f", "none", marker="o"),
            Key("other productive action", "#b0bec5", "none", marker="o"),
            Key(
                "h harvest, c craft, t transfer + agent id; x an enabling move/equip/request",
                "none",
                "none",
                marker="o",
            ),
        ],
        ncol=2,
        fontsize=8,
    )
    return fig


def inventory_lines(row: dict[str, Any]) -> list[str]:
    out = []
    for a in row.get("agents") or []:
        inv = ", ".join(f"{k} {v}" for k, v in sorted((a.get("inv") or {}).items())) or "empty"
        out.append(f"#{a['id']} at {a.get('site')}: {inv}; equipped {', '.join(a.get('eq') or []) or '-'}")
    return out


@component
def Extras(state: Any, version: int = 0) -> None:
    with solara.Columns([1, 1]):
        for run, rows in (("reference", state.reference), ("treatment", state.treatment)):
            row = rows[-1]
            with solara.Card(f"Inventories ({run})", classes=["mam-inventories", f"mam-inventories-{run}"]):
                with solara.Column(gap="2px"):
                    for line in inventory_lines(row):
                        solara.Text(line, style="font-size:12px;display:block")
                    if row.get("checkpoints"):
                        solara.Text(str(row["checkpoints"]), style="font-size:12px;font-weight:bold;display:block")
    with solara.Card("Supply chain (treatment)", classes=["mam-supply-chain"]):
        solara.FigureMatplotlib(chain_figure(state.treatment, "treatment supply chain"), format="png")
