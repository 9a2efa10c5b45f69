"""The paired animation of a recorded run: reference | treatment, one round per frame.

The reference's final frame is held once it ends (as on the pilot page), so the panels stay
time-aligned; there are treatment rounds + 1 frames, and frame 0 shows the same start twice.
Panels are drawn without titles (labels live in a header strip) so frame 0's panels are
pixel-identical.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image, ImageDraw

from mam_bench.dashboards.replay import held, load_recording
from mam_bench.dashboards.worlds import renderer_for

PANEL = 320  # px, square panels
GAP = 12
HEADER = 28


def panel_image(row: dict[str, Any], info: Any) -> Image.Image:
    fig = Figure(figsize=(PANEL / 80, PANEL / 80), dpi=80)
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.96))
    renderer_for(info.world).draw_board(ax, row, info)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba()).convert("RGB")


def panel_boxes() -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """Pixel boxes (left, top, right, bottom) of the reference and treatment panels."""
    return (0, HEADER, PANEL, HEADER + PANEL), (PANEL + GAP, HEADER, 2 * PANEL + GAP, HEADER + PANEL)


def frames(run_dir: Path | str) -> list[Image.Image]:
    rec = load_recording(run_dir)
    n = len(rec.treatment) - 1
    refs = held(rec.reference, n)
    out = []
    for i in range(n + 1):
        frame = Image.new("RGB", (2 * PANEL + GAP, HEADER + PANEL), "white")
        draw = ImageDraw.Draw(frame)
        ref_note = " (held)" if i >= len(rec.reference) else ""
        draw.text((6, 8), f"reference{ref_note}  round {min(i, len(rec.reference) - 1)}", fill="black")
        draw.text((PANEL + GAP + 6, 8), f"treatment  round {i}", fill="black")
        left, right = panel_boxes()
        frame.paste(panel_image(refs[i], rec.info), left[:2])
        frame.paste(panel_image(rec.treatment[i], rec.info), right[:2])
        out.append(frame)
    return out


def write_gif(images: list[Image.Image], out: Path, ms_per_frame: int = 500) -> None:
    pal = [im.quantize(colors=255, dither=Image.Dither.NONE) for im in images]
    pal[0].save(out, save_all=True, append_images=pal[1:], duration=ms_per_frame, loop=0, optimize=False)


def write_mp4(images: list[Image.Image], out: Path, fps: int = 2) -> bool:
    """MP4 through ffmpeg; False when ffmpeg is not installed."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        for i, im in enumerate(images):
            im.save(Path(tmp) / f"f{i:05d}.png")
        subprocess.run(
            [ffmpeg, "-y", "-loglevel", "error", "-framerate", str(fps), "-i", str(Path(tmp) / "f%05d.png"),
             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p", str(out)],
            check=True,
        )
    return True
