"""Fallback renderer for worlds without their own: positions if the snapshot has any, else keys."""

from __future__ import annotations

from typing import Any

from matplotlib.axes import Axes

from mam_bench.dashboards.legend import Key


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


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    keys = [Key("agent", "#1f77b4")]
    if getattr(info, "influence_ids", ()):
        keys.append(Key("influence agent", "#d62728"))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    pts = _points(row)
    influence = set(getattr(info, "influence_ids", ()))
    if pts:
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
