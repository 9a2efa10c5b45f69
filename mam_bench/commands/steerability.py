"""`mam-bench steerability SCENARIO... --seeds A-B --out DIR`: can a benchmark scenario be steered?

Plays the oracle, the heuristic, `random` and the placebos (`stay`, `mimic`, `rule`) on calibration
seeds as an ordinary suite (the experiment's runner: per-pair folders, --jobs, resume by rerunning
the same command on DIR), then writes DIR/steerability.csv (each controller's mean lift with a t
interval), DIR/headroom.csv (oracle minus the best placebo, paired by seed) and DIR/steerability.md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from mam_bench import startup
from mam_bench.errors import ConfigError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("steerability", help="how far each benchmark scenario can be steered (oracle headroom)")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario names of the definition, or `all`")
    p.add_argument("--seeds", required=True, help="calibration seeds, e.g. 500-509 (never held-out seeds)")
    p.add_argument("--tier", default="quick", help="the tier whose horizon and dose are played (default quick)")
    p.add_argument("--definition", default=None, help="benchmark file (default suites/benchmark.yaml)")
    p.add_argument("--out", required=True, help="folder; rerun the same command on it to resume")
    p.add_argument("--jobs", type=int, default=None, help="pairs at a time (default: CPU count)")
    p.add_argument("--executor", default="local", choices=("local", "ray"))
    p.add_argument("--address", default=None, help="Ray cluster address")
    p.add_argument(
        "--controllers",
        default=None,
        help="comma-separated subset of oracle,heuristic,random,stay,mimic,rule (default all six)",
    )
    p.add_argument(
        "--oracle-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the oracle (VALUE as JSON, else text), e.g. candidates=4 (repeatable)",
    )
    p.add_argument("--allow-mixed", action="store_true", help="resume a folder other code produced")
    p.set_defaults(handler=handle, max_cost=None, max_calls=None)


def _options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError("oracle_option", f"expected KEY=VALUE, got {item!r}")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    return out


def _controllers(text: str | None) -> tuple[str, ...]:
    from mam_bench.benchmark.steerability import CONTROLLERS
    from mam_bench.registry import CONTROLLERS as REGISTERED

    if text is not None and not text.strip(" ,"):
        raise ConfigError("controllers", f"names none; give a comma-separated subset of {', '.join(CONTROLLERS)}")
    chosen = tuple(c.strip() for c in text.split(",")) if text is not None else CONTROLLERS
    for c in chosen:
        if c not in CONTROLLERS:
            raise ConfigError("controllers", f"{c!r} is not one of {', '.join(CONTROLLERS)}")
        if c not in REGISTERED:
            raise ConfigError("controllers", f"{c!r} is not a registered controller here")
    if len(set(chosen)) != len(chosen):
        raise ConfigError("controllers", "a controller is named twice")
    return chosen


def plan(args: argparse.Namespace) -> tuple[Any, list[Any], Any]:
    """(benchmark, scenarios, suite), validated whole before any file is touched."""
    from mam_bench.benchmark.definition import find_definition, load_benchmark
    from mam_bench.benchmark.steerability import calibration_seeds, pick_scenarios, profile_suite

    bench = load_benchmark(find_definition(args.definition))
    bench.tier(args.tier)
    scenarios = pick_scenarios(bench, list(args.scenarios))
    seeds = calibration_seeds(args.seeds)
    options = {"oracle": _options(args.oracle_option)}
    controllers = _controllers(args.controllers)
    if args.oracle_option and "oracle" not in controllers:
        raise ConfigError("oracle_option", "the oracle is not among --controllers, so nothing would read it")
    return bench, scenarios, profile_suite(bench, scenarios, args.tier, seeds, controllers, options)


def handle(args: argparse.Namespace) -> int:
    from mam_bench.commands.benchmark import check_controllers
    from mam_bench.commands.experiment import check_limits, check_table, failures_and_exit
    from mam_bench.run_dir import check_out_dir, refuse_other_kind

    out = Path(args.out)
    check_out_dir(out)
    refuse_other_kind(out, "experiment")
    check_table(out / "table.csv")
    check_limits(args)
    bench, scenarios, suite = plan(args)
    check_controllers(suite)
    from mam_bench.experiment.run_suite import check_provenance, run_experiment

    check_provenance(out, suite, args.allow_mixed)
    startup.imports_done()
    outcome = run_experiment(suite, out, args.executor, args.address, args.jobs, allow_mixed=args.allow_mixed)
    if (out / "table.csv").is_file():
        write_profile(bench, scenarios, args, out)
    print(f"{outcome.finished} pairs run, {outcome.skipped} already finished, {len(outcome.failed)} failed -> {out}")
    return failures_and_exit(outcome, out)


def write_profile(bench: Any, scenarios: list[Any], args: argparse.Namespace, out: Path) -> None:
    import pandas as pd

    from mam_bench.benchmark.steerability import markdown, profiles

    lifts, heads = profiles(bench, scenarios, args.tier, pd.read_csv(out / "table.csv"))
    lifts.to_csv(out / "steerability.csv", index=False)
    heads.to_csv(out / "headroom.csv", index=False)
    command = "mam-bench steerability " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["steerability"] else [])
    text = markdown(lifts, heads, command.strip())
    (out / "steerability.md").write_text(text, encoding="utf-8")
    print(text, end="")
