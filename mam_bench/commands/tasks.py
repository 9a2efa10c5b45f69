"""`mam-bench tasks WORLD`: the task files of a world that registers tasks."""

from __future__ import annotations

import argparse

from mam_bench.errors import ConfigError
from mam_bench.registry import get_world


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list the tasks of a world that has them")
    p.add_argument("world")
    p.add_argument("--check", metavar="FILE", help="validate one task file of your own instead of listing")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from mam_bench.capabilities import Tasks
    from mam_bench.run_dir import non_empty

    non_empty(args.check, "check")
    world = get_world(args.world).Params
    if not isinstance(world, Tasks):
        raise ConfigError("world", f"{args.world} has no tasks")
    if args.check is not None:
        print(world.check_task(args.check))
        return 0
    for name, description in world.list_tasks():
        print(f"{name:24s} {description}")
    return 0
