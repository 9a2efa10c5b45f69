"""Swarm renderer (pursuit, synchronization, foraging, flocking, transport): walls, box, prey,
food and nest symbols, agents' light or carrying state, and the round's local messages."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap

from mam_bench.dashboards.grid_axes import square_frame
from mam_bench.dashboards.legend import Key
from mam_bench.dashboards.ui import component, solara

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

    return {
        f"{r},{c}": SYMBOL[int(v)]
        for (r, c), v in np.ndenumerate(terrain)
        if int(v) not in (EMPTY, WALL) and int(v) in SYMBOL
    }


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


MARK_NAMES = {"P": "prey", "F": "food", "N": "nest"}
AGENT_COLOURS = {"idle": "#1e88e5", "light on": "#ffca28", "carrying": "#43a047"}
INFLUENCE_EDGE = "#d50000"


def agent_states(row: dict[str, Any], info: Any) -> list[str]:
    """Each agent's drawn state. `alt_state` is the world's `$id` flag (light off in
    synchronization); `carrying` says who holds food in foraging; other worlds set neither."""
    flag = row.get("alt_state") or []
    carrying = row.get("carrying") or []
    n = len(row.get("positions") or [])
    out = []
    for aid in range(n):
        off = bool(flag[aid]) if aid < len(flag) else True
        if info.world == "synchronization":
            out.append("idle" if off else "light on")
        elif info.world == "foraging":
            out.append("carrying" if aid < len(carrying) and carrying[aid] else "idle")
        else:
            out.append("idle")
    return out


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    """Agent states that can occur in this world, the influence ring, walls and the marks on the map."""
    idle = {"synchronization": "light off", "foraging": "empty-handed"}.get(info.world, "agent")
    keys = [Key(idle, AGENT_COLOURS["idle"], "k", marker="o", width=0.6)]
    if info.world == "synchronization":
        keys.append(Key("light on", AGENT_COLOURS["light on"], "k", marker="o", width=0.6))
    if info.world == "foraging":
        keys.append(Key("carrying food", AGENT_COLOURS["carrying"], "k", marker="o", width=0.6))
    if info.influence_ids:
        keys.append(Key("influence agent", "white", INFLUENCE_EDGE, marker="o", width=2.0))
    keys.append(Key("wall", WALL_RGB))
    if row.get("box"):
        keys.append(Key("box", "#a1887f", "#4e342e", width=0.8))
    if row.get("gap"):
        keys.append(Key("gap", "#fff59d", "#f9a825", width=0.8))
    marks = set(_fixed_marks(row, info).values()) | set((row.get("marks") or {}).values())
    for sym in sorted(marks):
        keys.append(Key(MARK_NAMES.get(sym, sym), MARK_COLOURS.get(sym, "k"), "none", marker=f"${sym}$", size=9))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any) -> None:
    size = int(row["size"])
    walls = _walls(row, info)
    ax.imshow(
        walls.astype(int), cmap=ListedColormap([(0.97, 0.97, 0.95), WALL_RGB]), vmin=0, vmax=1, interpolation="nearest"
    )
    for r, c in row.get("box") or []:
        ax.add_patch(_square(r, c, "#a1887f", "#4e342e"))
    for r, c in row.get("gap") or []:
        ax.add_patch(_square(r, c, "#fff59d", "#f9a825"))
    for key, sym in {**_fixed_marks(row, info), **(row.get("marks") or {})}.items():
        r, c = (int(x) for x in key.split(","))
        ax.text(c, r, sym, ha="center", va="center", fontsize=11, fontweight="bold", color=MARK_COLOURS.get(sym, "k"))
    influence = set(info.influence_ids)
    states = agent_states(row, info)
    for aid, p in enumerate(row.get("positions") or []):
        if p is None:
            continue
        r, c = p
        ax.scatter(
            [c],
            [r],
            s=(300 / size) ** 2,
            c=AGENT_COLOURS[states[aid]],
            edgecolors=INFLUENCE_EDGE if aid in influence else "k",
            linewidths=2.2 if aid in influence else 0.6,
            zorder=3,
        )
        ink = "black" if states[aid] == "light on" else "white"
        ax.text(c, r, str(aid), ha="center", va="center", fontsize=8, color=ink, zorder=4)
    square_frame(ax, size)


def _square(r: int, c: int, face: str, edge: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=face, edgecolor=edge, linewidth=0.8, zorder=2)


@component
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
