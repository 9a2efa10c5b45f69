"""`mam-bench worlds`: one line per registered world."""

from __future__ import annotations

import argparse

from mam_bench.registry import get_world, world_names


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worlds", help="list the registered worlds")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    for name in world_names():
        cls = get_world(name)  # a registered world that does not import fails loudly
        objectives = "/".join(cls.scoring.objectives)
        print(f"{name:16s} metric {cls.scoring.metric:12s} objectives {objectives:22s} {cls.summary}")
    return 0
