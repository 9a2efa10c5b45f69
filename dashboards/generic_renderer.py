"""Fallback renderer for worlds without their own: positions if the snapshot has any, else keys.

Snapshots with an `agents` list (every `MesaWorld`) are drawn through a Mesa-style
`agent_portrayal(agent) -> {"color", "size", "marker", "alpha", "zorder"}`: the one a world
registers as its renderer, so an existing SolaraViz portrayal draws the paired view. The agent it
receives is rebuilt from the record: its public state, `unique_id`, `pos` and `cell.coordinate`.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from types import SimpleNamespace
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


#: Okabe-Ito: told apart under the common colour-blindnesses and (by lightness) in greyscale
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
#: numeric bins, dark to light (cividis: monotone in lightness, colour-blind safe)
BINS = ("#00224E", "#3B496C", "#7C7B78", "#BCAF6F", "#FDE737")
INFLUENCE = "#d62728"
EDGE = "#c8c8c8"


def recorded_agent(entry: dict[str, Any]) -> SimpleNamespace:
    """An agent-like object from one snapshot entry, for a portrayal written against live agents."""
    state = {k: v for k, v in entry.items() if k not in ("id", "xy", "kind", "board_state")}
    xy = entry.get("xy")
    pos = None if xy is None else (xy[0], xy[1])
    return SimpleNamespace(
        unique_id=entry["id"], pos=pos, cell=SimpleNamespace(coordinate=pos), kind=entry.get("kind"), **state
    )


def _is_categorical(values: list[Any], bins: list[float]) -> bool:
    if bins:
        return False
    if all(isinstance(v, (bool, str)) for v in values):
        return True
    return all(isinstance(v, int) for v in values) and len(set(values)) <= len(PALETTE)


def _bin_labels(edges: list[float]) -> list[str]:
    def num(x: float) -> str:
        return f"{x:g}"

    labels, low = [], None
    for e in edges:
        if low is None:
            labels.append(f"<= {num(e)}")
        elif all(float(x).is_integer() for x in (low, e)) and e - low == 1:
            labels.append(num(e))
        elif all(float(x).is_integer() for x in (low, e)):
            labels.append(f"{num(low + 1)}-{num(e)}")
        else:
            labels.append(f"{num(low)}-{num(e)}")
        low = e
    labels.append(f"> {num(edges[-1])}")
    return labels


class StateColours:
    """Which colour each agent's state gets on this row, and the legend naming them."""

    def __init__(self, row: dict[str, Any]):
        declared = row.get("state") or {}
        self.attribute = declared.get("attribute")
        self.named = {str(k): v for k, v in (declared.get("colors") or {}).items()}
        self.setup = [str(v) for v in declared.get("values") or []]
        values = [a.get("board_state") for a in row.get("agents", []) if a.get("board_state") is not None]
        bins = [float(b) for b in declared.get("bins") or []]
        self.categorical = _is_categorical(values, bins)
        if not self.categorical and values and not bins:  # the row's own range, in 4 equal steps
            lo, hi = min(values), max(values)
            bins = [lo + (hi - lo) * k / 4 for k in range(1, 4)] if hi > lo else [lo]
        self.edges = bins
        self.values = sorted(set(values), key=lambda v: (str(type(v)), v))

    def colour(self, value: Any) -> str:
        if value is None:
            return "#7f7f7f"
        if self.categorical:
            text = str(value)
            if text in self.named:
                return self.named[text]
            if isinstance(value, (bool, int)):
                return PALETTE[int(value) % len(PALETTE)]
            if text in self.setup:  # present at setup: the same slot on both boards
                return PALETTE[self.setup.index(text) % len(PALETTE)]
            free = PALETTE[len(self.setup) :] or PALETTE
            return free[zlib.crc32(text.encode()) % len(free)]  # a later state: the same on every row
        return self.colour_of_slot(next((i for i, e in enumerate(self.edges) if float(value) <= e), len(self.edges)))

    def keys(self) -> list[Key]:
        if self.attribute is None:
            return []
        if self.categorical:
            shown = sorted({str(v) for v in self.values} | set(self.named))
            return [Key(f"{self.attribute} {s}", self._named_or(s), marker="o") for s in shown]
        labels = _bin_labels(self.edges)
        return [Key(f"{self.attribute} {lab}", self.colour_of_slot(i), marker="o") for i, lab in enumerate(labels)]

    def _named_or(self, text: str) -> str:
        if text in self.named:
            return self.named[text]
        value = next((v for v in self.values if str(v) == text), text)
        return self.colour(value)

    def colour_of_slot(self, slot: int) -> str:
        """Slots spread evenly over the dark-to-light ramp (one slot per bin, the last open)."""
        slots = len(self.edges) + 1
        return BINS[round(slot * (len(BINS) - 1) / (slots - 1))] if slots > 1 else BINS[2]


def _default_portrayal(kinds: list[str]) -> Callable[[Any], dict[str, Any]]:
    return lambda agent: {"color": PALETTE[kinds.index(agent.kind) % len(PALETTE)], "size": 40}


def _laid_out(agents: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Agents with a position; a model without a space gets its agents on a grid by id."""
    placed = [a for a in agents if a.get("xy") is not None]
    if placed or not agents:
        return placed, False
    side = max(1, round(len(agents) ** 0.5))
    return [{**a, "xy": [i % side, -(i // side)]} for i, a in enumerate(agents)], True


def draw_agents(
    ax: Axes,
    agents: list[dict[str, Any]],
    influence: set[int],
    portrayal: Callable[[Any], dict[str, Any]] | None,
    row: dict[str, Any] | None = None,
) -> None:
    row = row or {"agents": agents}
    for x0, y0, x1, y1 in row.get("edges", []):
        ax.plot([x0, x1], [y0, y1], color=EDGE, linewidth=0.6, zorder=0)
    kinds = sorted({str(a.get("kind")) for a in agents})
    state = StateColours(row)
    if portrayal is not None:
        portray = portrayal
    elif state.attribute is not None:
        by_id = {a["id"]: a for a in agents}

        def portray(agent: Any) -> dict[str, Any]:
            return {"color": state.colour(by_id[agent.unique_id].get("board_state")), "size": 40}
    else:
        portray = _default_portrayal(kinds)
    placed, gridded = _laid_out(agents)
    groups: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    for a in placed:
        p = portray(recorded_agent(a)) or {}
        groups.setdefault(p.get("marker", "o"), []).append((a, p))
    for marker, items in groups.items():
        ax.scatter(
            [a["xy"][0] for a, _ in items],
            [a["xy"][1] for a, _ in items],
            marker=marker,
            c=[p.get("color", PALETTE[0]) for _, p in items],
            s=[p.get("size", 40) for _, p in items],
            edgecolors="none",
            zorder=2,
        )
        ringed = [(a, p) for a, p in items if a["id"] in influence]
        if ringed:  # a ring around the dot, not over it: the fill shows the state unchanged
            ax.scatter(
                [a["xy"][0] for a, _ in ringed],
                [a["xy"][1] for a, _ in ringed],
                marker=marker,
                facecolors="none",
                edgecolors=INFLUENCE,
                s=[p.get("size", 40) * 3 for _, p in ringed],
                linewidths=1.6,
                zorder=3,
            )
    ax.set_aspect("equal")
    if gridded:
        ax.set_title(f"{len(placed)} agents (no space: laid out by id)", fontsize=8)
    else:
        ax.set_title(f"{len(placed)} agents placed, {len(agents) - len(placed)} off the board", fontsize=8)


def legend(row: dict[str, Any], info: Any) -> list[Key]:
    """The state's colours (the declared attribute's values or bins), then the influence ring."""
    keys = StateColours(row).keys() if isinstance(row.get("agents"), list) else []
    if not keys:
        keys = [Key("agent", PALETTE[0], marker="o")]
    if getattr(info, "influence_ids", ()):
        keys.append(Key("influence agent (ringed)", "none", INFLUENCE, marker="o", width=2))
    return keys


def portrayal_legend(
    row: dict[str, Any], info: Any, portrayal: Callable[[Any], dict[str, Any]] | None = None
) -> list[Key]:
    """A world's own portrayal picks the colours; the legend names them by the states that got
    them on this row (`opinion 0`, `condition active`), then the influence ring."""
    attribute = StateColours(row).attribute
    seen: dict[str, list[Any]] = {}
    for a in row.get("agents", []) if portrayal is not None else []:
        colour = (portrayal(recorded_agent(a)) or {}).get("color", PALETTE[0])
        state = a.get("board_state")
        if state not in seen.setdefault(str(colour), []):
            seen[str(colour)].append(state)
    keys = []
    for colour, states in list(seen.items())[: len(PALETTE)]:
        named = [str(v) for v in sorted(states, key=lambda v: (str(type(v)), v)) if v is not None]
        shown = ", ".join(named[:3]) + (", ..." if len(named) > 3 else "")
        label = f"{attribute} {shown}" if attribute and named else "agent"
        keys.append(Key(label, colour, marker="o"))
    if not keys:
        keys = [Key("agent (colours: the world's agent_portrayal)", "#bbbbbb", marker="o")]
    if getattr(info, "influence_ids", ()):
        keys.append(Key("influence agent (ringed)", "none", INFLUENCE, marker="o", width=2))
    return keys


def draw_board(ax: Axes, row: dict[str, Any], info: Any, portrayal: Callable[[Any], dict] | None = None) -> None:
    pts = _points(row)
    influence = set(getattr(info, "influence_ids", ()))
    if isinstance(row.get("agents"), list):
        draw_agents(ax, row["agents"], influence, portrayal, row)
    elif pts:
        xs = [x for _, x, _ in pts]
        ys = [y for _, _, y in pts]
        cols = [INFLUENCE if aid in influence else PALETTE[0] for aid, _, _ in pts]
        ax.scatter(xs, ys, c=cols, s=30, marker="s")
        ax.invert_yaxis()
        ax.set_aspect("equal")
    else:
        keys = ", ".join(k for k in row if k not in ("metrics",))
        ax.text(0.5, 0.5, f"round {row.get('round')}\n{keys}", ha="center", va="center", wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])
