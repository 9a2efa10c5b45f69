"""`mam-bench tasks WORLD`: the task files of a world that registers tasks."""

from __future__ import annotations

import argparse

from mam_bench.errors import ConfigError
from mam_bench.registry import get_world, registration


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list the tasks of a world that has them")
    p.add_argument("world")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    if not registration(args.world).tasks:
        raise ConfigError("world", f"{args.world} has no tasks")
    for name, description in get_world(args.world).list_tasks():
        print(f"{name:24s} {description}")
    return 0
