"""`mam-bench report DIR [DIR ...] --leaderboard`: the benchmark's leaderboard of those folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mam_bench.errors import ConfigError
from mam_bench.run_dir import begins_with, check_out_dir, claim_file, write_page

#: how every leaderboard page this command writes begins (an older one may be replaced)
PAGE_HEAD = "<!doctype html><html><head><meta charset='utf-8'><title>MAM-Bench leaderboard"


ours = begins_with(PAGE_HEAD)


def handle_leaderboard(args: argparse.Namespace, style: str) -> int:
    from mam_bench.benchmark.leaderboard import build_board, leaderboard_html, leaderboard_markdown

    folders = [Path(d) for d in [args.dir, *args.more]]
    for f in folders:
        if not f.is_dir():
            raise ConfigError("dir", f"{f} is not a directory (a benchmark folder from mam-bench benchmark)")
    if len(set(map(Path.resolve, folders))) != len(folders):
        raise ConfigError("dir", "a folder is named twice")
    if args.markdown or args.pairs or args.split:
        raise ConfigError("leaderboard", "--markdown, --pairs and --split are for an experiment report")
    board = build_board(folders)
    if not (args.html or args.out):
        print(leaderboard_markdown(board), end="")
        return 0
    out = Path(args.out) if args.out else folders[0] / "leaderboard.html"
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give an .html file")
    check_out_dir(out.parent if str(out.parent) else Path("."))
    page = leaderboard_html(board, style)
    aside = claim_file(out, args.force, ours)  # a file the command did not write is refused unless --force
    if aside is not None:
        print(f"moved the old {out.name} aside to {aside}", file=sys.stderr)
    write_page(out, page)
    print(f"leaderboard -> {out}")
    return 0
