"""Swarm renderer (pursuit, synchronization, foraging, flocking, transport): walls, box, prey,
food and nest symbols, agents' light or carrying state, and the round's local messages."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import solara
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap

WALL_RGB = (0.25, 0.25, 0.28)
MARK_COLOURS = {"P": "#8e24aa", "F": "#2e7d32", "N": "#6d4c41"}


@lru_cache(maxsize=32)
def _terrain(world: str, seed: int, params: tuple[tuple[str, str], ...]) -> np.ndarray | None:
    """Walls do not move, so they come from a fresh world with the same parameters and seed."""
    try:
        from mam_bench.registry import get_world

        cls = get_world(world)
        return np.asarray(cls(cls.Params.from_strings(dict(params)), seed=seed).terrain)
    except Exception:
        return None


def _fixed_marks(row: dict[str, Any], info: Any) -> dict[str, str]:
    """Food, nest and prey cells painted into the terrain rather than listed in `marks`."""
    params = tuple(sorted((k, str(v)) for k, v in (info.params or {}).items()))
    terrain = _terrain(info.world, int(info.seed), params)
    if terrain is None:
        return {}
    from mam_bench.models.swarm.grid import EMPTY, SYMBOL, WALL

    return {f"{r},{c}": SYMBOL[int(v)] for (r, c), v in np.ndenumerate(terrain)
            if int(v) not in (EMPTY, WALL) and int(v) in SYMBOL}


def _walls(row: dict[str, Any], info: Any) -> np.ndarray:
    size = int(row["size"])
    if "walls" in row:
        w = np.zeros((size, size), dtype=bool)
        for r, c in row["walls"]:
            w[r, c] = True
        return w
    params = tuple(sorted((k, str(v)) for k, v in (info.params or {}).items()))
    terrain = _terrain(info.world, int(info.seed), params)
    if terrain is not None and terrain.shape == (size, size):
        from mam_bench.models.swarm.grid import WALL

        return terrain == WALL
    w = np.zeros((size, size), dtype=bool)
    w[0, :] = w[-1, :] = w[:, 0] = w[:, -1] = True
    return w


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    size = int(row["size"])
    walls = _walls(row, info)
    ax.imshow(walls.astype(int), cmap=ListedColormap([(0.97, 0.97, 0.95), WALL_RGB]), vmin=0, vmax=1,
              interpolation="nearest")
    for r, c in row.get("box") or []:
        ax.add_patch(_square(r, c, "#a1887f", "#4e342e"))
    for r, c in row.get("gap") or []:
        ax.add_patch(_square(r, c, "#fff59d", "#f9a825"))
    for key, sym in {**_fixed_marks(row, info), **(row.get("marks") or {})}.items():
        r, c = (int(x) for x in key.split(","))
        ax.text(c, r, sym, ha="center", va="center", fontsize=11, fontweight="bold", color=MARK_COLOURS.get(sym, "k"))
    influence = set(info.influence_ids)
    lit = row.get("alt_state") or []
    carrying = row.get("carrying") or []
    for aid, p in enumerate(row.get("positions") or []):
        if p is None:
            continue
        r, c = p
        on = not lit[aid] if aid < len(lit) else True  # `$id` means light off / not carrying
        face = "#ffca28" if on and "alt_state" in row and info.world == "synchronization" else "#1e88e5"
        if aid < len(carrying) and carrying[aid]:
            face = "#43a047"
        ax.scatter([c], [r], s=(240 / size) ** 2, c=face, edgecolors="#d50000" if aid in influence else "k",
                   linewidths=2.2 if aid in influence else 0.6, zorder=3)
        ax.text(c, r, str(aid), ha="center", va="center", fontsize=7, color="white", zorder=4)
    ax.set_xlim(-0.5, size - 0.5)
    ax.set_ylim(size - 0.5, -0.5)
    ax.set_xticks([])
    ax.set_yticks([])


def _square(r: int, c: int, face: str, edge: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=face, edgecolor=edge, linewidth=0.8, zorder=2)


@solara.component
def Extras(state: Any, version: int = 0) -> None:
    """Local messages (heard next round) and actions of the last treatment round."""
    row = state.treatment[-1]
    with solara.Card(f"Local messages, round {row['round']}", classes=["mam-messages"]), solara.Column(gap="2px"):
        said = [(i, m) for i, m in enumerate(row.get("messages") or []) if m]
        if not said:
            solara.Text("no messages this round")
        actions = row.get("actions") or []
        for aid, msg in said:
            act = actions[aid] if aid < len(actions) else None
            solara.Text(f"#{aid} [{act}]: {msg}", style="font-size:12px")
