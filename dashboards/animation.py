"""The paired animation of a recorded run: reference | treatment, one round per frame.

The reference's final frame is held once it ends (as on the pilot page), so the panels stay
time-aligned; there are treatment rounds + 1 frames, and frame 0 shows the same start twice.
Panels are drawn without titles (labels live in a header strip) so frame 0's panels are
pixel-identical. Below them: both runs' running primary metric with the lift so far, and the
legend of the board's symbols.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from PIL import Image

from mam_bench.dashboards.figures import RUN_COLOURS, board_keys
from mam_bench.dashboards.legend import Key, add_legend
from mam_bench.dashboards.renderers import renderer_for
from mam_bench.dashboards.replay import checked_recording, held
from mam_bench.outcome import delta_lift_relative

PANEL = 400  # px, square panels
GAP = 16
HEADER = 40
CHART = 170  # the running metric of both runs, with the lift so far
LEGEND = 56
DPI = 100
WIDTH = 2 * PANEL + GAP


def _image(fig: Figure) -> Image.Image:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba()).convert("RGB")


def panel_image(row: dict[str, Any], info: Any) -> Image.Image:
    fig = Figure(figsize=(PANEL / DPI, PANEL / DPI), dpi=DPI)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.96))
    renderer_for(info.world).draw_board(ax, row, info)
    return _image(fig)


def panel_boxes() -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """Pixel boxes (left, top, right, bottom) of the reference and treatment panels."""
    return (0, HEADER, PANEL, HEADER + PANEL), (PANEL + GAP, HEADER, 2 * PANEL + GAP, HEADER + PANEL)


def _value(row: dict[str, Any], metric: str) -> float | None:
    v = (row.get("metrics") or {}).get(metric)
    return None if v is None else float(v)


def header_image(
    i: int, ref_round: int, held_note: str, ref: float | None, tre: float | None, metric: str
) -> Image.Image:
    fig = Figure(figsize=(WIDTH / DPI, HEADER / DPI), dpi=DPI)
    for x, run, rnd, note, v in ((0.01, "reference", ref_round, held_note, ref), (0.51, "treatment", i, "", tre)):
        text = f"{run}{note}  round {rnd}  |  {metric} {'n/a' if v is None else f'{v:.4f}'}"
        fig.text(x, 0.5, text, va="center", ha="left", fontsize=11, fontweight="bold", color=RUN_COLOURS[run])
    return _image(fig)


def chart_image(refs: list[dict[str, Any]], tres: list[dict[str, Any]], i: int, info: Any) -> Image.Image:
    """Both runs' primary metric up to round i on an axis fixed for the whole animation."""
    m = info.primary
    fig = Figure(figsize=(WIDTH / DPI, CHART / DPI), dpi=DPI)
    ax = fig.add_axes((0.08, 0.2, 0.9, 0.62))
    every = [v for rows in (refs, tres) for v in (_value(r, m) for r in rows) if v is not None]
    lo, hi = (min(every), max(every)) if every else (0.0, 1.0)
    span = (hi - lo) or 1.0
    ax.set_xlim(0, max(len(tres) - 1, 1))
    ax.set_ylim(lo - 0.05 * span, hi + 0.1 * span)
    for run, rows in (("reference", refs), ("treatment", tres)):
        ys = [_value(r, m) for r in rows[: i + 1]]
        ax.plot(range(len(ys)), [float("nan") if y is None else y for y in ys], color=RUN_COLOURS[run], linewidth=2)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(m, fontsize=8)
    ax.set_xlabel("completed rounds", fontsize=8, labelpad=1)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    ref, tre = _value(refs[i], m), _value(tres[i], m)
    if ref is not None and tre is not None:
        lift = delta_lift_relative(tre, ref, info.direction)
        better = "higher" if info.direction > 0 else "lower"
        fig.text(
            0.08,
            0.9,
            f"round {i}: delta {lift['delta']:+.4f} | lift {lift['lift']:+.4f} "
            f"(objective {info.objective}: {better} {m} is better)",
            fontsize=9,
            va="center",
        )
    return _image(fig)


def legend_image(row: dict[str, Any], info: Any) -> Image.Image:
    fig = Figure(figsize=(WIDTH / DPI, LEGEND / DPI), dpi=DPI)
    keys = board_keys(row, info) + [
        Key(f"{run} {info.primary}", RUN_COLOURS[run], "-", marker="-", width=2) for run in ("reference", "treatment")
    ]
    add_legend(fig, keys, ncol=min(5, len(keys)), fontsize=8, y=0.0)
    return _image(fig)


def frames(run_dir: Path | str) -> list[Image.Image]:
    rec = checked_recording(run_dir)
    info = rec.info
    n = len(rec.treatment) - 1
    refs = held(rec.reference, n)
    legend = legend_image(rec.treatment[0], info)
    out = []
    for i in range(n + 1):
        frame = Image.new("RGB", (WIDTH, HEADER + PANEL + CHART + LEGEND), "white")
        ref_round = min(i, len(rec.reference) - 1)
        note = " (held)" if i >= len(rec.reference) else ""
        frame.paste(
            header_image(
                i, ref_round, note, _value(refs[i], info.primary), _value(rec.treatment[i], info.primary), info.primary
            ),
            (0, 0),
        )
        left, right = panel_boxes()
        frame.paste(panel_image(refs[i], info), left[:2])
        frame.paste(panel_image(rec.treatment[i], info), right[:2])
        frame.paste(chart_image(refs, rec.treatment, i, info), (0, HEADER + PANEL))
        frame.paste(legend, (0, HEADER + PANEL + CHART))
        out.append(frame)
    return out


#: the GIF comment that marks an animation as written by `mam-bench animate` (a rerun may replace it)
GIF_MARK = b"mam-bench animate"


def write_gif(images: list[Image.Image], out: Path, ms_per_frame: int = 500) -> None:
    """Written beside `out`, then renamed: a full disk leaves no half GIF that looks like ours."""
    from mam_bench.records import writing

    pal = [im.quantize(colors=255, dither=Image.Dither.NONE) for im in images]
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        with writing(out):
            pal[0].save(
                tmp,
                format="GIF",
                save_all=True,
                append_images=pal[1:],
                duration=ms_per_frame,
                loop=0,
                optimize=False,
                comment=GIF_MARK,
            )
            os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def write_mp4(images: list[Image.Image], out: Path, fps: int = 2) -> bool:
    """MP4 through ffmpeg; False when ffmpeg is not installed. Made in a scratch folder and moved
    into place whole."""
    from mam_bench.errors import ConfigError
    from mam_bench.records import writing

    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        return False
    with tempfile.TemporaryDirectory() as tmp, writing(out):
        for i, im in enumerate(images):
            im.save(Path(tmp) / f"f{i:05d}.png")
        done = subprocess.run(
            [
                ffmpeg,
                "-y",
                "-loglevel",
                "error",
                "-framerate",
                str(fps),
                "-i",
                str(Path(tmp) / "f%05d.png"),
                "-vf",
                "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                "-pix_fmt",
                "yuv420p",
                str(Path(tmp) / "out.mp4"),
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise ConfigError("out", f"ffmpeg could not write {out}: {done.stderr.strip()[-300:]}")
        staged = out.with_name(f".{out.name}.tmp")
        try:
            shutil.move(Path(tmp) / "out.mp4", staged)
            os.replace(staged, out)
        finally:
            staged.unlink(missing_ok=True)
    return True
