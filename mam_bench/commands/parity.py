"""`mam-bench parity TOOL`: our worlds' reference runs stepped beside another tool's worlds written
again from its code (a module registered under the `mam_bench.parity` entry points: `pilot`, the
pilot's two worlds), printing each run's first differing step.

A tool module offers `WORLDS` (world -> its settings by the tool's own names, with defaults),
`cases(world, pairs)` (the chosen worlds' settings with `--param` overrides; a bad one is a
ConfigError) and `first_difference(world, seed, case)` ((step, how) or None).
"""

from __future__ import annotations

import argparse
from importlib.metadata import entry_points
from typing import Any

from mam_bench.errors import ConfigError

GROUP = "mam_bench.parity"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("parity", help="step our worlds beside a rules-only re-derivation of another tool's")
    p.add_argument("tool", help="the tool whose worlds to step beside ours (pilot: JoeHelbing/mam-bench's two worlds)")
    p.add_argument("--seeds", default="0-9", help="a range A-B or a list 0,1,2")
    p.add_argument("--world", default=None, help="one of the tool's worlds (default: every one)")
    p.add_argument(
        "--param",
        action="append",
        metavar="KEY=VALUE",
        help="a setting by the tool's own name; it applies to each chosen world that has it (an unknown one "
        "is named with the known)",
    )
    p.set_defaults(handler=handle)


def tool(name: str) -> Any:
    found = {ep.name: ep for ep in entry_points(group=GROUP)}
    if name not in found:
        raise ConfigError("tool", f"no parity tool {name!r} (registered: {', '.join(sorted(found)) or 'none'})")
    return found[name].load()


def handle(args: argparse.Namespace) -> int:
    from mam_bench.commands.landscape import parse_seeds

    checker = tool(args.tool)
    seeds = parse_seeds(args.seeds)
    chosen = checker.cases(args.world, args.param)
    differing = 0
    for world, case in chosen.items():
        for seed in seeds:
            found = checker.first_difference(world, seed, case)
            if found is None:
                print(f"{world} seed {seed}: identical")
                continue
            differing += 1
            step, how = found
            print(f"{world} seed {seed}: first difference at step {step}: {how}")
    runs = len(chosen) * len(seeds)
    if differing:
        print(f"{differing} of {runs} runs differ from {args.tool}'s rules")
        return 1
    print(f"identical at every step: {runs} runs ({', '.join(chosen)}; seeds {args.seeds})")
    return 0
