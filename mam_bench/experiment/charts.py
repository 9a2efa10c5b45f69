"""Inline SVG charts for the report: no scripts, no CDN, so the HTML file stands alone."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mam_bench.numbers import interval, signed

if TYPE_CHECKING:
    import pandas as pd

W, H, PAD = 720, 320, 56


def _esc(s: object) -> str:
    return html.escape(str(s))


def _scale(lo: float, hi: float, a: float, b: float):
    span = (hi - lo) or 1.0
    return lambda v: a + (v - lo) / span * (b - a)


def case_label(case: str, controller: str) -> str:
    """A case's bar label: its name, and its controller where the name does not already say it."""
    return case if controller in case else f"{case} ({controller})"


def panel_bars(group: pd.DataFrame, placebos: pd.DataFrame) -> tuple[list[str], list[list[float]], list[int]]:
    """One panel's bars: each case's lift, then its placebos' own lifts (`stay`, `mimic`) beside it.
    Returns labels, [means, lows, highs], and each bar's case (its index in the panel) with -1 for
    a case's own bar and the case's index for its placebos (so a chart can group and grey them)."""
    labels: list[str] = []
    values: list[list[float]] = [[], [], []]
    owner: list[int] = []
    for k, (_, r) in enumerate(group.iterrows()):
        mine = placebos[placebos["case"] == r["case"]] if len(placebos) else placebos
        rows = [(case_label(str(r["case"]), str(r["controller"])), r, -1)]
        rows += [(str(p["placebo"]), p, k) for _, p in mine.iterrows()]
        for label, row, whose in rows:
            labels.append(label)
            for i, c in enumerate(("mean", "ci_low", "ci_high")):
                values[i].append(float(row[c]))
            owner.append(whose)
    return labels, values, owner


#: a case's row, the plot's width beside the labels, and the width of one label character (11 px
#: system-ui, generous), so a label column always holds its longest label whole
ROW, PLOT, CHAR = 26, 420, 6.8


def lift_bars(
    labels: Sequence[str],
    mean: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    title: str = "",
    panel_id: str = "lift-chart",
    owner: Sequence[int] = (),
) -> str:
    """Mean lift per case with its 95% CI as whiskers; the zero line marks 'no effect'; a
    placebo's bar (`stay`, `mimic`: the agents removed or re-drawn) is grey, beside its case.

    One panel holds one world and metric (lifts on different scales never share an axis). One row
    per case, its label whole on the left: the panel is as tall as its cases and as wide as its
    longest label needs, never a wide frame around one bar.
    """
    owner = list(owner) or [-1] * len(labels)
    placebo = [o >= 0 for o in owner]
    vals = [v for v in [*mean, *low, *high, 0.0] if v is not None and math.isfinite(v)]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.1 or 0.01
    left = 16 + CHAR * max([len(str(lab)) for lab in labels] or [4])
    width = left + PLOT + 24
    top = 30 if title else 10
    bottom = top + ROW * max(len(labels), 1)
    height = bottom + 34
    x = _scale(lo - pad, hi + pad, left, left + PLOT)
    parts = [
        f'<svg id="{_esc(panel_id)}" class="chart lift-panel" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height}" viewBox="0 0 {width:.0f} {height}" role="img" aria-label="mean lift per case with 95% CI'
        f'{": " + _esc(title) if title else ""}">'
    ]
    if title:
        parts.append(f'<text class="panel-title" x="4" y="16" font-size="13" font-weight="bold">{_esc(title)}</text>')
    parts.append(f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top}" y2="{bottom}" stroke="#444"/>')
    parts.append(f'<line x1="{left}" x2="{left + PLOT}" y1="{bottom}" y2="{bottom}" stroke="#999"/>')
    for t in _ticks(lo - pad, hi + pad):
        parts.append(
            f'<text x="{x(t):.1f}" y="{bottom + 14}" text-anchor="middle" font-size="11">{t:+.3g}</text>'
            f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{bottom}" y2="{bottom + 3}" stroke="#999"/>'
        )
    parts.append(
        f'<text x="{left + PLOT / 2:.0f}" y="{bottom + 30}" font-size="11" text-anchor="middle">'
        "mean lift (95% CI); right of the line: the objective's way; grey: placebos</text>"
    )
    for i, (lab, m, a, b, grey) in enumerate(zip(labels, mean, low, high, placebo)):
        y0 = top + i * ROW + ROW * 0.2
        if i and not grey:  # a case's group begins: a rule between it and the group above
            rule_y = top + i * ROW
            parts.append(f'<line x1="4" x2="{left + PLOT}" y1="{rule_y:.1f}" y2="{rule_y:.1f}" stroke="#ddd"/>')
        bh = ROW * 0.6
        start, end = (x(0), x(m)) if m >= 0 else (x(m), x(0))
        colour = "#aaaaaa" if grey else "#2b7bba" if m >= 0 else "#c0504d"
        kind = "bar placebo" if grey else "bar"
        parts.append(
            f'<rect class="{kind}" x="{start:.1f}" y="{y0:.1f}" width="{max(end - start, 0.5):.1f}" height="{bh:.1f}" '
            f'fill="{colour}"><title>{_esc(lab)}: mean lift {signed(m)}, 95% CI {interval(a, b)}</title></rect>'
        )
        cy = y0 + bh / 2
        if math.isfinite(a) and math.isfinite(b):
            parts.append(
                f'<line class="ci" x1="{x(a):.1f}" x2="{x(b):.1f}" y1="{cy:.1f}" y2="{cy:.1f}" stroke="#000"/>'
            )
            for v in (a, b):
                parts.append(
                    f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{cy - 5:.1f}" y2="{cy + 5:.1f}" stroke="#000"/>'
                )
        style = ' fill="#555" font-style="italic"' if grey else ""
        parts.append(
            f'<text class="{"placebo-label" if grey else "case-label"}" x="{left - 8:.1f}" y="{cy + 4:.1f}" '
            f'font-size="11" text-anchor="end"{style}>{_esc(lab)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About n round values across [lo, hi], zero among them when it is inside."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    return [round(first + k * step, 12) for k in range(int((hi - first) / step) + 1)]


def time_series(title: str, reference: Sequence[float], treatment: Sequence[float], metric: str) -> str:
    """Metric per round; the reference is held at its final value after it stops (dashed)."""
    rounds = max(len(reference), len(treatment), 2)
    vals = [v for v in [*reference, *treatment] if v is not None and math.isfinite(v)] or [0.0, 1.0]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.1 or 0.01
    x = _scale(0, rounds - 1, PAD, W - 20)
    y = _scale(lo - pad, hi + pad, H - 40, 20)

    def line(vs: Sequence[float], colour: str, cls: str, dash: str = "") -> str:
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vs) if v is not None)
        return f'<polyline class="{cls}" points="{pts}" fill="none" stroke="{colour}" stroke-width="2" {dash}/>'

    held = list(reference) + [reference[-1]] * (rounds - len(reference)) if reference else []
    parts = [
        f'<svg class="series" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        f'role="img" aria-label="{_esc(title)}">',
        f'<text x="{PAD}" y="14" font-size="12">{_esc(title)}</text>',
        line(held, "#888", "reference", 'stroke-dasharray="4 3"'),
        line(reference, "#555", "reference"),
        line(treatment, "#2b7bba", "treatment"),
    ]
    for t in (lo, hi):
        parts.append(f'<text x="{PAD - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="11">{t:.3f}</text>')
    parts.append(
        f'<text x="{W - 20}" y="{H - 12}" text-anchor="end" font-size="11">round ({rounds - 1}); '
        f"{_esc(metric)}: grey reference, blue treatment</text></svg>"
    )
    return "".join(parts)


def heatmap(xs: Sequence[str], ys: Sequence[str], z: dict[tuple[str, str], float], label: str) -> str:
    """The landscape surface seen from above: x = threshold, y = vacancy, colour = mean value."""
    cw, ch = (W - PAD - 20) / max(len(xs), 1), 22
    height = ch * len(ys) + 70
    parts = [
        f'<svg id="landscape" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height:.0f}" '
        f'viewBox="0 0 {W} {height:.0f}" role="img" aria-label="{_esc(label)}">'
    ]
    for j, yv in enumerate(ys):
        parts.append(f'<text x="{PAD - 4}" y="{20 + j * ch + 15}" text-anchor="end" font-size="10">{_esc(yv)}</text>')
        for i, xv in enumerate(xs):
            v = z.get((xv, yv))
            if v is None or not math.isfinite(v):
                continue
            shade = int(255 * (1 - max(0.0, min(1.0, v))))
            parts.append(
                f'<rect x="{PAD + i * cw:.1f}" y="{20 + j * ch}" width="{cw:.1f}" height="{ch}" '
                f'fill="rgb({shade},{shade},255)"><title>threshold {_esc(xv)}, vacancy {_esc(yv)}: '
                f"{v:.3f}</title></rect>"
            )
    for i, xv in enumerate(xs):
        cx = PAD + (i + 0.5) * cw
        base = 20 + ch * len(ys) + 12
        parts.append(
            f'<text x="{cx:.1f}" y="{base}" font-size="9" text-anchor="end" '
            f'transform="rotate(-45 {cx:.1f} {base})">{_esc(xv)}</text>'
        )
    parts.append(f'<text x="{PAD}" y="12" font-size="11">{_esc(label)} (darker = higher)</text></svg>')
    return "".join(parts)


def dose_response(curves: dict[str, list[tuple[float, float, float, float]]]) -> str:
    """Mean lift against the number of influence agents, one line per setting, each point with
    its 95% CI as a whisker (none where the CI is NA)."""
    pts = [p for c in curves.values() for p in c]
    xs = [p[0] for p in pts] or [0.0, 1.0]
    vals = [v for p in pts for v in p[1:] if v is not None and math.isfinite(v)] + [0.0]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.1 or 0.01
    x = _scale(min(xs), max(xs), PAD, W - 160)
    y = _scale(lo - pad, hi + pad, H - 40, 20)
    colours = ("#2b7bba", "#c0504d", "#4f8f3a", "#8064a2", "#f79646", "#4bacc6")
    parts = [
        f'<svg id="dose-chart" class="chart" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" role="img" aria-label="mean lift by number of influence agents with 95% CI">',
        f'<line x1="{PAD}" x2="{W - 160}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#444"/>',
    ]
    for t in (lo - pad, 0.0, hi + pad):
        parts.append(f'<text x="{PAD - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="11">{t:+.3f}</text>')
    for v in sorted(set(xs)):
        parts.append(f'<text x="{x(v):.1f}" y="{H - 24}" text-anchor="middle" font-size="11">{v:g}</text>')
    for k, (label, curve) in enumerate(curves.items()):
        colour = colours[k % len(colours)]
        curve = sorted(curve)
        line = " ".join(f"{x(d):.1f},{y(m):.1f}" for d, m, _, _ in curve)
        parts.append(f'<polyline class="dose" points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for d, m, a, b in curve:
            parts.append(
                f'<circle class="dose-point" cx="{x(d):.1f}" cy="{y(m):.1f}" r="3" fill="{colour}">'
                f"<title>{_esc(label)}: {d:g} influence agents, mean lift {signed(m)}, "
                f"95% CI {interval(a, b)}</title></circle>"
            )
            if math.isfinite(a) and math.isfinite(b):
                parts.append(
                    f'<line class="ci" x1="{x(d):.1f}" x2="{x(d):.1f}" y1="{y(a):.1f}" y2="{y(b):.1f}" '
                    f'stroke="{colour}"/>'
                )
        parts.append(f'<text x="{W - 150}" y="{30 + 16 * k}" font-size="11" fill="{colour}">{_esc(label)}</text>')
    parts.append(
        f'<text x="{(PAD + W - 160) / 2:.0f}" y="{H - 6}" text-anchor="middle" font-size="11">'
        "influence agents</text></svg>"
    )
    return "".join(parts)
