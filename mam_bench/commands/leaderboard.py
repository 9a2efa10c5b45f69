"""`mam-bench report DIR [DIR ...] --leaderboard`: the benchmark's leaderboard of those folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.records import write_whole
from mam_bench.run_dir import begins_with, check_name_lengths, check_out_dir, claim_file

#: how every leaderboard page this command writes begins (an older one may be replaced)
PAGE_HEAD = "<!doctype html><html><head><meta charset='utf-8'><title>MAM-Bench leaderboard"


ours = begins_with(PAGE_HEAD)
#: what each item of benchmark.json's `roles` names
ROLE_KEYS = ("scenario", "role", "controller", "model")


def benchmark_folder(folder: Path) -> dict[str, Any]:
    """A benchmark folder's manifest, checked against its table before anything is scored from it:
    a damaged benchmark.json or table.csv is a ConfigError naming the file, not a board of NA rows."""
    from mam_bench.benchmark.leaderboard import MANIFEST, read_manifest
    from mam_bench.experiment.table import read_checked_table

    manifest = read_manifest(folder)
    path = folder / MANIFEST
    scenarios = manifest["scenarios"]
    if not isinstance(scenarios, list) or not all(
        isinstance(s, dict) and all(isinstance(s.get(k), str) for k in ("name", "world", "objective"))
        for s in scenarios
    ):
        raise ConfigError("dir", f"{path} is damaged (scenarios: expected name, world and objective of each)")
    entry = manifest["entry"]
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("controller"), str)
        or not isinstance(manifest["tier"], str)
    ):
        raise ConfigError("dir", f"{path} is damaged (entry or tier)")
    names = {s["name"] for s in scenarios}
    roles = manifest["roles"]
    items = [item for bucket in roles.values() for item in bucket] if isinstance(roles, dict) else None
    if not items or not all(isinstance(b, list) for b in roles.values()):
        raise ConfigError("dir", f"{path} is damaged (roles: expected case key -> list of roles)")
    for item in items:
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ROLE_KEYS):
            raise ConfigError("dir", f"{path} is damaged (roles: each names {', '.join(ROLE_KEYS)})")
        if item["scenario"] not in names:
            raise ConfigError("dir", f"{path} is damaged (roles name the unknown scenario {item['scenario']!r})")
    if not any(item["role"] == "entry" for item in items):
        raise ConfigError("dir", f"{path} is damaged (roles name no controller under test)")
    table = read_checked_table(folder / "table.csv")
    if not table["case_key"].isin(list(roles)).any():
        raise ConfigError("dir", f"{folder / 'table.csv'} holds no pair of {path} (another benchmark's table?)")
    return manifest


def handle_leaderboard(args: argparse.Namespace, style: str) -> int:
    from mam_bench.benchmark.leaderboard import build_board, leaderboard_html, leaderboard_markdown

    folders = [Path(d) for d in [args.dir, *args.more]]
    for f in folders:
        if not f.is_dir():
            raise ConfigError("dir", f"{f} is not a directory (a benchmark folder from mam-bench benchmark)")
    if len(set(map(Path.resolve, folders))) != len(folders):
        raise ConfigError("dir", "a folder is named twice")
    if args.markdown or args.pairs or args.split is not None:
        raise ConfigError("leaderboard", "--markdown, --pairs and --split are for an experiment report")
    for f in folders:
        benchmark_folder(f)
    board = build_board(folders)
    if not (args.html or args.out):
        print(leaderboard_markdown(board), end="")
        return 0
    out = Path(args.out) if args.out else folders[0] / "leaderboard.html"
    check_name_lengths(out)
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give an .html file")
    check_out_dir(out.parent if str(out.parent) else Path("."))
    page = leaderboard_html(board, style)
    aside = claim_file(out, args.force, ours)  # a file the command did not write is refused unless --force
    if aside is not None:
        print(f"moved the old {out.name} aside to {aside}", file=sys.stderr)
    write_whole(out, page)
    print(f"leaderboard -> {out}")
    return 0
