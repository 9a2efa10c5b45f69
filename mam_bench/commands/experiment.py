"""`mam-bench experiment SUITE.yaml --out DIR`: every pair of a suite, a tidy table, a summary."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from mam_bench import startup
from mam_bench.errors import ConfigError
from mam_bench.limits import MAX_PAIRS, MAX_REPEATS, MAX_SEEDS, seed_range

# YAML, the suite model and the runner (pydantic, pandas, SciPy, Mesa) are imported by the
# functions that use them, so that `experiment --help` answers at once

#: an LLM suite estimated above this many calls needs --yes (or an explicit --max-calls)
CALL_GUARD = 5_000


def llm_estimate(suite: Any, max_cost: float | None) -> tuple[int, int]:
    """(LLM pairs, estimated calls): influence agents x rounds x phases x calls a turn (estimate's
    per_turn) per pair, before any retry. Under --max-cost every LLM model must have a price (an
    unpriced model would count as free)."""
    from mam_bench.benchmark.estimate import per_turn
    from mam_bench.pricing import PriceTable
    from mam_bench.runner import prepared

    seeds = len(suite.seed_list()) * suite.repeats
    pairs = calls = 0
    for i, case in enumerate(suite.cases):
        if case.controller_name != "llm":
            continue
        spec = case.pair_spec(suite.seed_list()[0])
        prep = prepared(spec)
        options = spec.controller_options
        phases = 1 if options.get("one_call") else 2
        pairs += seeds
        model = options.get("model", "")
        calls += seeds * len(prep.influence_ids) * prep.horizon * phases * per_turn(options, model)[0]
        if max_cost is not None and not PriceTable(options.get("price_table")).priced(model):
            raise ConfigError(
                f"cases[{i}].model", f"{model} has no price, so --max-cost cannot bound it; add it to a price_table"
            )
    return pairs, calls


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("experiment", help="run a suite (cases x seeds x repeats) into a tidy table and summary")
    p.add_argument("suite", help="YAML suite file")
    p.add_argument("--out", required=True, help="experiment folder; rerun on the same folder to resume")
    p.add_argument("--executor", default="local", choices=("local", "ray"))
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--jobs", type=int, default=None, help="pairs at a time (default: CPU count)")
    p.add_argument("--max-cost", type=float, default=None, help="stop cleanly once this many USD are spent")
    p.add_argument("--max-calls", type=int, default=None, help="stop cleanly after this many LLM calls")
    p.add_argument(
        "--allow-mixed",
        action="store_true",
        help="resume even if the folder was produced by other code or data (pairs are marked mixed)",
    )
    p.add_argument(
        "--yes", action="store_true", help=f"start an LLM suite estimated above {CALL_GUARD} calls without --max-calls"
    )
    p.add_argument(
        "--controller",
        "--policy",
        dest="controller",
        default=None,
        help="play every case with this controller (drops LLM-only options; --policy: its old name)",
    )
    p.add_argument("--model", default=None, help="play every case with this PROVIDER:MODEL (controller llm)")
    p.add_argument("--seeds", default=None, help="the suite's seeds instead: A-B, a count, or a list 1,5,9")
    p.set_defaults(handler=handle)


def _count(seeds: Any, seed_start: Any) -> int | None:
    """How many seeds a raw `seeds` value names, without building the list."""
    if isinstance(seeds, bool):
        return None
    if isinstance(seeds, int):
        return seeds
    if isinstance(seeds, (list, tuple)):
        return len(seeds)
    if isinstance(seeds, str) and (bounds := seed_range(seeds)):
        return bounds[1] - bounds[0] + 1
    return None


def read_suite(path: str, overrides: dict[str, Any] | None = None) -> Any:
    """Load and bound a suite file: text, YAML, a mapping, sizes within the limits; then validate it
    (after the command line's --controller/--model/--seeds overrides, when given)."""
    import yaml

    from mam_bench.experiment.overrides import apply_overrides
    from mam_bench.experiment.suite import old_names_read, parse_suite, read_yaml

    p = Path(path)
    if not p.is_file():
        raise ConfigError("suite", f"no such file: {p}")
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError("suite", f"{p} is not a UTF-8 text file") from None
    except OSError as exc:
        raise ConfigError("suite", f"cannot read {p}: {exc.strerror or exc}") from None
    if "\x00" in text:
        raise ConfigError("suite", f"{p} is a binary file, not YAML")
    try:
        data = read_yaml(text)
    except yaml.YAMLError as exc:
        raise ConfigError("suite", f"not valid YAML: {exc}") from None
    data, notes = apply_overrides(old_names_read(data, str(p)), **(overrides or {}))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if isinstance(data, dict):
        n = _count(data.get("seeds", 10), data.get("seed_start", 0))
        if n is not None and n > MAX_SEEDS:
            raise ConfigError("seeds", f"{n} seeds; at most {MAX_SEEDS} per suite")
        reps = data.get("repeats", 1)
        if isinstance(reps, int) and reps > MAX_REPEATS:
            raise ConfigError("repeats", f"{reps} repeats; at most {MAX_REPEATS}")
        cases = data.get("cases")
        if n is not None and isinstance(reps, int) and isinstance(cases, list) and n * reps * len(cases) > MAX_PAIRS:
            raise ConfigError("suite", f"{n * reps * len(cases)} pairs; at most {MAX_PAIRS} per suite")
    return parse_suite(data)


def check_table(path: Path) -> None:
    """A table.csv to resume from must be text with the table's own header (else it is not ours)."""
    from mam_bench.experiment.table import COLUMNS

    if path.exists() and not path.is_file():
        raise ConfigError("out", f"{path} is not a regular file (a folder?); move it away to start afresh")
    if path.is_file() and path.stat().st_size == 0 and (path.parent / "table.parquet").exists():
        raise ConfigError("out", f"{path} is empty though the folder finished before (table.parquet); it is damaged")
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        first = path.read_bytes().decode("utf-8").split("\n", 1)[0].strip()
    except UnicodeDecodeError:
        raise ConfigError("out", f"{path} is damaged (not UTF-8 text); move it away to start afresh") from None
    if first != ",".join(COLUMNS):
        raise ConfigError("out", f"{path} is damaged or from another version (unexpected header)")


def _finite(name: str, value: float | None) -> None:
    if value is not None and (not math.isfinite(value) or value < 0):
        raise ConfigError(name, f"must be a finite non-negative number, got {value}")


def failures_and_exit(outcome: Any, out: str | Path) -> int:
    """The failed and given-up pairs of an experiment (or benchmark) run, and its exit code."""
    from mam_bench.experiment.run_suite import MAX_ATTEMPTS

    for pair_id, error in outcome.failed:
        print(f"failed: pair {pair_id}: {error}")
    if outcome.given_up:
        print(f"{len(outcome.given_up)} pairs not retried (failed {MAX_ATTEMPTS} times); see {out}/failures.jsonl")
    if outcome.endpoint_down:  # run_suite said why; the failed pairs rerun with the same command
        return 3
    if outcome.failed or outcome.given_up:
        return 1
    return 3 if outcome.stopped else 0


def check_limits(args: argparse.Namespace) -> None:
    """The budget and executor flags `experiment` and `benchmark` share, checked before any work."""
    from mam_bench.limits import MAX_JOBS

    _finite("max_cost", args.max_cost)
    if args.max_calls is not None and args.max_calls < 0:
        raise ConfigError("max_calls", "must not be negative")
    if args.jobs is not None and not 1 <= args.jobs <= MAX_JOBS:
        raise ConfigError("jobs", f"must be between 1 and {MAX_JOBS}")
    if args.address and args.executor == "local":
        raise ConfigError("address", "only the ray executor takes an address")
    if args.address:  # reachable now, before any folder is written
        from mam_bench.experiment.executors import check_address

        check_address(args.address)


def handle(args: argparse.Namespace) -> int:
    from mam_bench.experiment.run_suite import run_experiment
    from mam_bench.experiment.stats import format_flips, format_summary, verdicts
    from mam_bench.run_dir import check_out_dir, non_empty, refuse_other_kind

    non_empty(args.suite, "suite")
    non_empty(args.out, "out")
    check_out_dir(Path(args.out))
    refuse_other_kind(Path(args.out), "experiment")
    if (Path(args.out) / "benchmark.json").exists():
        raise ConfigError("out", f"{args.out} holds a benchmark (benchmark.json); resume it with mam-bench benchmark")
    check_limits(args)
    check_table(Path(args.out) / "table.csv")
    overrides = {"controller": args.controller, "model": args.model, "seeds": args.seeds}
    suite = read_suite(args.suite, overrides)  # validated whole before anything runs
    from mam_bench.runner import check_suite_controllers  # heavy: after the suite is read

    check_suite_controllers(suite)
    startup.imports_done()  # before any worker forks (copy-on-write) and any pair runs
    llm_pairs, calls = llm_estimate(suite, args.max_cost)
    if llm_pairs:
        print(f"estimate: {llm_pairs} LLM pairs, about {calls} calls (before retries and repairs)", file=sys.stderr)
        if calls > CALL_GUARD and args.max_calls is None and not args.yes:
            raise ConfigError(
                "yes",
                f"about {calls} LLM calls (above {CALL_GUARD}): pass --yes to start, "
                "or bound it with --max-calls / --max-cost",
            )
    outcome = run_experiment(
        suite,
        args.out,
        args.executor,
        args.address,
        args.jobs,
        args.max_cost,
        args.max_calls,
        allow_mixed=args.allow_mixed,
    )
    print(format_summary(outcome.summary))
    if outcome.flips is not None and len(outcome.flips):
        print(format_flips(outcome.flips))
    for line in verdicts(outcome.summary):  # as `run` reads one seed, over the seeds
        print(f"reading: {line}")
    print(
        f"{outcome.finished} pairs run, {outcome.skipped} already finished, {len(outcome.failed)} failed "
        f"-> {args.out}/table.csv, table.parquet, summary.csv"
    )
    if outcome.invalid:
        print(f"{outcome.invalid} invalid pairs left out of the statistics (see the invalid column)")
    return failures_and_exit(outcome, args.out)
