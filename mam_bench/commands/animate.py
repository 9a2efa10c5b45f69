"""`mam-bench animate RUN_DIR --out fork.gif`: the paired animation of a recorded run."""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from pathlib import Path

from mam_bench.errors import ConfigError
from mam_bench.run_dir import check_file_path, check_name_lengths, claim_file, non_empty


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("animate", help="write the paired reference|treatment animation of a run (GIF, MP4)")
    p.add_argument("run_dir", help="run directory written by `mam-bench run`")
    p.add_argument("--out", default="fork.gif", help="output .gif or .mp4 (default fork.gif)")
    p.add_argument("--mp4", action="store_true", help="also write an MP4 beside the GIF (needs ffmpeg)")
    p.add_argument("--fps", type=float, default=2.0, help="frames per second (default 2)")
    p.add_argument(
        "--force", action="store_true", help="replace an --out file not written by animate (moved aside first)"
    )
    p.set_defaults(handler=handle)


def ours(path: Path) -> bool:
    """A GIF this command wrote (its comment says so); an MP4 carries no such mark."""
    if path.suffix.lower() != ".gif":
        return False
    from PIL import Image

    from mam_bench.dashboards.animation import GIF_MARK

    try:
        with Image.open(path) as im:
            return im.format == "GIF" and im.info.get("comment") == GIF_MARK
    except (OSError, ValueError, SyntaxError):
        return False


def handle(args: argparse.Namespace) -> int:
    non_empty(args.run_dir, "run_dir")
    non_empty(args.out, "out")
    run_dir, out = Path(args.run_dir), Path(args.out)
    check_name_lengths(run_dir, "run_dir")
    if not (run_dir / "treatment.jsonl").exists():
        raise ConfigError("run_dir", f"{run_dir} holds no treatment.jsonl (not a run directory)")
    if out.suffix.lower() not in (".gif", ".mp4"):
        raise ConfigError("out", f"expected a .gif or .mp4 file, got {out.name!r}")
    if out.suffix.lower() == ".mp4" and shutil.which("ffmpeg") is None:
        raise ConfigError("out", "MP4 needs ffmpeg on PATH; write a .gif instead")
    if not math.isfinite(args.fps) or not 0.1 <= args.fps <= 60:
        raise ConfigError("fps", f"must be between 0.1 and 60 frames per second, got {args.fps}")
    check_name_lengths(out)
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give a .gif or .mp4 file")
    check_file_path(out)
    targets = [out] + ([out.with_suffix(".mp4")] if args.mp4 and out.suffix.lower() == ".gif" else [])
    for target in targets:
        if (target.exists() or target.is_symlink()) and not args.force:
            claim_file(target, False, ours)  # refused before any frame is drawn
    from mam_bench.dashboards.animation import frames, write_gif, write_mp4

    try:
        images = frames(run_dir)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError("run_dir", f"{run_dir} holds damaged records ({type(exc).__name__}: {exc})") from None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError("out", f"cannot create {out.parent}: {exc.strerror or exc}") from None
    for target in targets:
        aside = claim_file(target, args.force, ours)
        if aside is not None:
            print(f"moved the old {target.name} aside to {aside}", file=sys.stderr)
    written = []
    if out.suffix.lower() == ".gif":
        write_gif(images, out, int(round(1000 / args.fps)))
        written.append(out)
        if args.mp4 and write_mp4(images, out.with_suffix(".mp4"), args.fps):
            written.append(out.with_suffix(".mp4"))
    else:
        write_mp4(images, out, args.fps)
        written.append(out)
    print(f"{len(images)} frames -> {', '.join(map(str, written))}")
    return 0
