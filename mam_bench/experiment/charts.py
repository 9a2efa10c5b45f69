"""Inline SVG charts for the report: no scripts, no CDN, so the HTML file stands alone."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

W, H, PAD = 720, 320, 56


def _esc(s: object) -> str:
    return html.escape(str(s))


def _scale(lo: float, hi: float, a: float, b: float):
    span = (hi - lo) or 1.0
    return lambda v: a + (v - lo) / span * (b - a)


#: room left of the plot for the value axis, and below it for slanted case labels
LEFT, LABELS = 72, 120


def lift_bars(
    labels: Sequence[str],
    mean: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    title: str = "",
    panel_id: str = "lift-chart",
) -> str:
    """Mean lift per case with its 95% CI as whiskers; the zero line marks 'no effect'.

    One panel holds one world and metric (lifts on different scales never share an axis);
    the axis spans the bars and their CIs, and the labels get room of their own below it.
    """
    vals = [v for v in [*mean, *low, *high, 0.0] if v is not None and math.isfinite(v)]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.1 or 0.01
    top = 34 if title else 20
    y = _scale(lo - pad, hi + pad, H - PAD, top)
    n = max(len(labels), 1)
    slot = (W - LEFT - 20) / n
    height = H - PAD + LABELS
    parts = [
        f'<svg id="{_esc(panel_id)}" class="chart lift-panel" xmlns="http://www.w3.org/2000/svg" width="{W}" '
        f'height="{height}" viewBox="0 0 {W} {height}" role="img" aria-label="mean lift per case with 95% CI'
        f'{": " + _esc(title) if title else ""}">'
    ]
    if title:
        parts.append(
            f'<text class="panel-title" x="{LEFT}" y="16" font-size="13" font-weight="bold">{_esc(title)}</text>'
        )
    parts.append(f'<line x1="{LEFT}" x2="{W - 10}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#444"/>')
    parts.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{top}" y2="{H - PAD}" stroke="#999"/>')
    for t in _ticks(lo - pad, hi + pad):
        parts.append(f'<text x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="11">{t:+.3g}</text>')
        parts.append(f'<line x1="{LEFT - 3}" x2="{LEFT}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#999"/>')
    parts.append(
        f'<text x="14" y="{(top + H - PAD) / 2:.0f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {(top + H - PAD) / 2:.0f})">mean lift (95% CI)</text>'
    )
    for i, (lab, m, a, b) in enumerate(zip(labels, mean, low, high)):
        x0 = LEFT + i * slot + slot * 0.2
        bw = slot * 0.6
        top, base = (y(m), y(0)) if m >= 0 else (y(0), y(m))
        colour = "#2b7bba" if m >= 0 else "#c0504d"
        parts.append(
            f'<rect class="bar" x="{x0:.1f}" y="{top:.1f}" width="{bw:.1f}" height="{max(base - top, 0.5):.1f}" '
            f'fill="{colour}"><title>{_esc(lab)}: mean lift {m:+.4f}, 95% CI [{a:+.4f}, {b:+.4f}]</title></rect>'
        )
        cx = x0 + bw / 2
        if math.isfinite(a) and math.isfinite(b):
            parts.append(
                f'<line class="ci" x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(a):.1f}" y2="{y(b):.1f}" stroke="#000"/>'
            )
            for v in (a, b):
                parts.append(
                    f'<line x1="{cx - 6:.1f}" x2="{cx + 6:.1f}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#000"/>'
                )
        short = lab if len(lab) <= 40 else lab[:38] + "\u2026"
        parts.append(
            f'<text x="{cx:.1f}" y="{H - PAD + 16}" font-size="11" text-anchor="end" '
            f'transform="rotate(-30 {cx:.1f} {H - PAD + 16})">{_esc(short)}<title>{_esc(lab)}</title></text>'
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
                f"<title>{_esc(label)}: {d:g} influence agents, mean lift {m:+.4f}, "
                f"95% CI [{a:+.4f}, {b:+.4f}]</title></circle>"
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
