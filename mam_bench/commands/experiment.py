"""`mam-bench experiment SUITE.yaml --out DIR`: every pair of a suite, a tidy table, a summary."""

from __future__ import annotations

import argparse

from mam_bench.errors import ConfigError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("experiment", help="run a suite (cases x seeds x repeats) into a tidy table and summary")
    p.add_argument("suite", help="YAML suite file")
    p.add_argument("--out", required=True, help="experiment folder; rerun on the same folder to resume")
    p.add_argument("--executor", default="local", choices=("local", "ray"))
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--jobs", type=int, default=None, help="pairs at a time (default: CPU count)")
    p.add_argument("--max-cost", type=float, default=None, help="stop cleanly once this many USD are spent")
    p.add_argument("--max-calls", type=int, default=None, help="stop cleanly after this many LLM calls")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    # imported here: the suite runner pulls in pandas, SciPy and Mesa, which `--help` does not need
    from mam_bench.experiment.run_suite import run_experiment
    from mam_bench.experiment.stats import format_summary
    from mam_bench.experiment.suite import load_suite

    if args.max_cost is not None and args.max_cost < 0:
        raise ConfigError("max_cost", "must not be negative")
    if args.max_calls is not None and args.max_calls < 0:
        raise ConfigError("max_calls", "must not be negative")
    if args.jobs is not None and args.jobs < 1:
        raise ConfigError("jobs", "must be at least 1")
    suite = load_suite(args.suite)  # validated whole before anything runs
    outcome = run_experiment(suite, args.out, args.executor, args.address, args.jobs, args.max_cost, args.max_calls)
    print(format_summary(outcome.summary))
    print(f"{outcome.finished} pairs run, {outcome.skipped} already finished, {len(outcome.failed)} failed "
          f"-> {args.out}/table.csv, table.parquet, summary.csv")
    if outcome.failed:
        return 1
    return 3 if outcome.stopped else 0
