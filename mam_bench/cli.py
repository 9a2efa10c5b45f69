"""The `mam-bench` command. Each subcommand lives in mam_bench/commands/<name>.py.

Bad input fails before any work with `error: FIELD: message` and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from mam_bench.errors import ConfigError

#: subcommand modules, in the order `mam-bench --help` lists them (add yours here)
COMMANDS = ["worlds", "run", "landscape", "tasks", "dashboard", "animate", "experiment", "report", "new-world"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mam-bench",
        description="Paired steering experiments: can a few coordinating AI agents steer an agent-based model?",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"mam_bench.commands.{name.replace('-', '_')}")
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; finished records are kept", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
