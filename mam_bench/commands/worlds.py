"""`mam-bench worlds`: the registered worlds as an aligned table."""

from __future__ import annotations

import argparse

from mam_bench.registry import get_world, world_names

#: what a world without a `summary` shows, so the gap is named rather than blank
NO_SUMMARY = "(no summary: set `summary` on the world class)"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worlds", help="list the registered worlds")
    p.set_defaults(handler=handle)


def table(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as left-aligned columns (the last one left ragged): readable however long a name is."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join([*(c.ljust(w) for c, w in zip(r, widths)), r[-1]]).rstrip() for r in rows]


def handle(args: argparse.Namespace) -> int:
    rows = [("world", "metric", "objectives", "summary")]
    for name in world_names():
        cls = get_world(name)  # a registered world that does not import fails loudly
        rows.append((name, cls.scoring.metric, "/".join(cls.scoring.objectives), cls.scoring.summary or NO_SUMMARY))
    print("\n".join(table(rows)))
    return 0
