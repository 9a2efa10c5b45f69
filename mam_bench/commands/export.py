"""`mam-bench export RUN --format NAME --out DIR`: a run in another tool's log format.

The formats are offered by the registered worlds (`WorldRegistration.exports`), so core names
none: the swarm worlds offer `swarmbench` (SwarmBench's meta_log / game_log / agent_log files).
RUN is a run directory or an experiment folder (every case pair of it). Nothing is overwritten.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mam_bench.errors import ConfigError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write a run (or an experiment's runs) in another tool's log format")
    p.add_argument("run", help="run directory (mam-bench run) or experiment folder (mam-bench experiment)")
    p.add_argument("--format", required=True, help="log format offered by a registered world (e.g. swarmbench)")
    p.add_argument("--out", required=True, help="new or empty folder to write into")
    p.add_argument(
        "--keep-prompts",
        action="store_true",
        help="store each full prompt (rebuilt by replaying the run), not its hash",
    )
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from mam_bench.registry import offered
    from mam_bench.run_dir import check_name_lengths, check_out_dir, non_empty

    for field in ("run", "format", "out"):
        non_empty(getattr(args, field), field)
    run, out = Path(args.run), Path(args.out)
    check_name_lengths(run, "run")
    if not run.is_dir():
        raise ConfigError("run", f"{run} is not a directory (a run directory or an experiment folder)")
    check_out_dir(out)  # a name too long (in bytes) or a folder that cannot be written: refused now
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError("out", f"{out} exists and is not an empty folder (nothing is overwritten)")
    writer = offered("exports", args.format)
    print(writer(run, out, args.keep_prompts))
    return 0
