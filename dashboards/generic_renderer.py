"""Fallback renderer for worlds without their own: positions if the snapshot has any, else keys.

Snapshots with an `agents` list (every `MesaWorld`) are drawn through a Mesa-style
`agent_portrayal(agent) -> {"color", "size", "marker", "alpha", "zorder"}`: the one a world
registers as its renderer, so an existing SolaraViz portrayal draws the paired view. The agent it
receives is rebuilt from the record: its public state, `unique_id`, `pos` and `cell.coordinate`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from mam_bench.dashboards.legend import Key
from matplotlib.axes import Axes


def _points(row: dict[str, Any]) -> list[tuple[int, float, float]]:
    """(id, x, y) for every recognisable position in a snapshot."""
    pos = row.get("positions")
    size = row.get("size")
    out: list[tuple[int, float, float]] = []
    items = pos.items() if isinstance(pos, dict) else enumerate(pos or [])
    for aid, p in items:
        if p is None:
            continue
        if isinstance(p, (int, float)) and isinstance(size, int):
            r, c = divmod(int(p), size)
            out.append((int(aid), c, r))
        elif isinstance(p, (list, tuple)) and len(p) >= 2:
            out.append((int(aid), float(p[1]), float(p[0])))
    return out


PALETTE = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")


def recorded_agent(entry: dict[str, Any]) -> SimpleNamespace:
    """An agent-like object from one snapshot entry, for a portrayal written against live agents."""
    state = {k: v for k, v in entry.items() if k not in ("id", "xy", "kind")}
    xy = entry.get("xy")
    pos = None if xy is None else (xy[0], xy[1])
    return SimpleNamespace(
        unique_id=entry["id"], pos=pos, cell=SimpleNamespace(coordinate=pos), kind=entry.get("kind"), **state
    )


def _default_portrayal(kinds: list[str]) -> Callable[[Any], dict[str, Any]]:
    return lambda agent: {"color": PALETTE[kinds.index(agent.kind) % len(PALETTE)], "size": 40}


def draw_agents(
    ax: Axes, agents: list[dict[str, Any]], influence: set[int], portrayal: Callable[[Any], dict[str, Any]] | None
) -> None:
    kinds = sorted({str(a.get("kind")) for a in agents})
    portray = portrayal or _default_portrayal(kinds)
    placed = [a for a in agents if a.get("xy") is not None]
    groups: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for a in placed:
        p = portray(recorded_agent(a)) or {}
        groups.setdefault(p.get("marker", "o"), []).append((a, p))
    for marker, items in groups.items():
        ax.scatter(
            [a["xy"][0] for a, _ in items],
            [a["xy"][1] for a, _ in items],
            marker=marker,
            c=[p.get("color", "#1f77b4") for _, p in items],
            s=[p.get("size", 40) for _, p in items],
            edgecolors=["#d62728" if a["id"] in influence else "none" for a, _ in items],
            linewidths=2,
        )
    ax.set_aspect("equal")
    ax.set_title(f"{len(placed)} agents placed, {len(agents) - len(placed)} off the board", fontsize=8)


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    keys = [Key("agent", "#1f77b4")]
    if getattr(info, "influence_ids", ()):
        keys.append(Key("influence agent", "#d62728"))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any, portrayal: Callable[[Any], dict] | None = None) -> None:
    pts = _points(row)
    influence = set(getattr(info, "influence_ids", ()))
    if isinstance(row.get("agents"), list):
        draw_agents(ax, row["agents"], influence, portrayal)
    elif pts:
        xs = [x for _, x, _ in pts]
        ys = [y for _, _, y in pts]
        cols = ["#d62728" if aid in influence else "#1f77b4" for aid, _, _ in pts]
        ax.scatter(xs, ys, c=cols, s=30, marker="s")
        ax.invert_yaxis()
        ax.set_aspect("equal")
    else:
        keys = ", ".join(k for k in row if k not in ("metrics",))
        ax.text(0.5, 0.5, f"round {row.get('round')}\n{keys}", ha="center", va="center", wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])
