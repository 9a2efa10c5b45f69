"""`mam-bench ceiling --definition FILE --tier T --out DIR`: compute a v3 benchmark's ceiling.

Plays, per scenario and seed of the tier, the reference (the oracle with the definition's planner),
the definition's `ceiling_from` controllers and the placebos as one experiment in DIR (resumable:
rerun the same command), then writes DIR/ceiling.json: per scenario and seed the best lift, the
controller and the plan (each round's decisions) that reached it, and the placebos' lifts. Ship it
under the definition's `ceiling:` folder (DIR = that folder/TIER); `mam-bench benchmark` scores
against it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from mam_bench import startup
from mam_bench.errors import ConfigError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ceiling", help="compute a v3 benchmark's ceiling: the best known lift and plan per seed")
    p.add_argument("--definition", required=True, help="a v3 benchmark file (score: v3)")
    p.add_argument("--tier", required=True, help="the tier whose seeds and doses to play")
    p.add_argument("--out", required=True, help="folder of the ceiling's plays and its ceiling.json; rerun to resume")
    p.add_argument("--seeds", default=None, help="seeds to play instead of the tier's, e.g. 1000-1001")
    p.add_argument("--jobs", type=int, default=None, help="pairs at a time (default: CPU count)")
    p.add_argument("--executor", default="local", choices=("local", "ray"))
    p.add_argument("--address", default=None, help="Ray cluster address")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from mam_bench.benchmark.ceiling import CEILING_FILE, ceiling_suite, summarise
    from mam_bench.benchmark.definition import load_benchmark, parse_seeds
    from mam_bench.experiment.run_suite import check_provenance, run_experiment
    from mam_bench.records import write_whole
    from mam_bench.run_dir import check_out_dir, non_empty, refuse_other_kind

    for field in ("definition", "tier", "out", "seeds", "address"):
        non_empty(getattr(args, field), field)
    if not Path(args.definition).is_file():
        raise ConfigError("definition", f"no such file: {args.definition}")
    bench = load_benchmark(args.definition)
    if bench.score != "v3":
        raise ConfigError("definition", f"{bench.name} is scored {bench.score}; only a v3 benchmark ships a ceiling")
    bench.tier(args.tier)
    seeds = parse_seeds(args.seeds if args.seeds is not None else bench.tier(args.tier).seeds)
    out = Path(args.out)
    check_out_dir(out)
    refuse_other_kind(out, "experiment")  # a run's folder is no ceiling's
    if (out / "benchmark.json").exists():
        raise ConfigError("out", f"{out} holds a benchmark (benchmark.json); give the ceiling its own folder")
    suite, keys = ceiling_suite(bench, args.tier, seeds)
    check_provenance(out, suite, False)
    startup.imports_done()
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    outcome = run_experiment(suite, out, args.executor, args.address, args.jobs)
    if outcome.failed:
        raise ConfigError("out", f"{len(outcome.failed)} ceiling pairs failed; rerun to resume ({out})")
    data = summarise(bench, args.tier, seeds, out, keys)
    write_whole(out / CEILING_FILE, json.dumps(data, indent=1, sort_keys=True) + "\n")
    seconds = time.perf_counter() - started
    for name, s in data["scenarios"].items():
        by = {}
        for cell in s["seeds"].values():
            by[cell["by"]] = by.get(cell["by"], 0) + 1
        print(f"{name}: ceiling from " + ", ".join(f"{c} on {n}" for c, n in sorted(by.items())))
    print(
        f"{outcome.finished} pairs run, {outcome.skipped} already finished in {seconds:.0f} s -> {out / CEILING_FILE}"
    )
    return 0
