"""`mam-bench benchmark --controller C --out DIR`: rate one controller on the versioned benchmark.

The benchmark (suites/benchmark.yaml) becomes an ordinary suite: the controller's case per scenario,
the reference strategy's (the oracle in a v2 benchmark), and the placebos as baselines (`stay` and
`mimic`; v2 adds `rule`), on the tier's seeds, all in DIR: each folder holds its own zero and one.
It runs through
the experiment's own runner (executors, limits, resume: rerun the same command on DIR), and
DIR/benchmark.json says which rows play which role, for `mam-bench report DIR --leaderboard`.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

from mam_bench import startup
from mam_bench.errors import ConfigError

#: an LLM benchmark estimated above this many USD needs --yes (calls: experiment's CALL_GUARD)
COST_GUARD = 5.0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("benchmark", help="rate one controller on the versioned benchmark (scores per world)")
    p.add_argument(
        "--controller",
        "--policy",
        dest="controller",
        required=True,
        help="the controller to rate: heuristic, random, llm, replay, ... (--policy: its old name)",
    )
    p.add_argument("--model", action="append", default=None, help="PROVIDER:MODEL for --controller llm (repeatable)")
    p.add_argument("--tier", default=None, help="quick (default) or full; a replay plays the recorded tier")
    p.add_argument("--seeds", default=None, help="seeds to play instead of the tier's, e.g. 0-1 or 3,5")
    p.add_argument("--out", required=True, help="benchmark folder; rerun on the same folder to resume")
    p.add_argument("--definition", default=None, help="benchmark file (default suites/benchmark.yaml)")
    p.add_argument("--replay", default=None, help="with --controller replay: a benchmark folder to replay")
    p.add_argument("--jobs", type=int, default=None, help="pairs at a time (default: CPU count)")
    p.add_argument("--executor", default="local", choices=("local", "ray"))
    p.add_argument("--port", type=int, default=None, help="with --controller human: the page's port (default 8765)")
    p.add_argument("--address", default=None, help="Ray cluster address")
    p.add_argument("--max-cost", type=float, default=None, help="stop cleanly once this many USD are spent")
    p.add_argument("--max-calls", type=int, default=None, help="stop cleanly after this many LLM calls")
    p.add_argument("--allow-mixed", action="store_true", help="resume a folder other code produced")
    p.add_argument("--yes", action="store_true", help="start an LLM benchmark above the call or cost guard")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint for --controller llm")
    p.add_argument("--api-key-env", default=None, help="environment variable holding the API key")
    p.add_argument("--price-table", default=None, help="JSON file: model -> {input, output} USD per million tokens")
    p.add_argument(
        "--rates-from",
        action="append",
        default=[],
        metavar="DIR",
        help="a run, experiment or benchmark folder whose recorded calls give a model's repair rate and "
        "seconds a call for the estimate (repeatable; --out's own records count when resuming)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another controller option (VALUE as JSON, else text), e.g. temperature=1.0 (repeatable)",
    )
    p.set_defaults(handler=handle)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError("option", f"expected KEY=VALUE, got {item!r}")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
    for key in ("base_url", "api_key_env", "price_table"):
        if getattr(args, key) is not None:
            out[key] = getattr(args, key)
    return out


def _recorded(folder: Path, bench_hash: str) -> tuple[dict[str, Any], dict[tuple[str, str, int], str]]:
    """A recorded benchmark folder: its manifest and (scenario, model, seed) -> pair directory of
    each finished pair of the controller under test."""
    from mam_bench.benchmark.leaderboard import entry_pairs
    from mam_bench.commands.leaderboard import benchmark_folder

    if not folder.is_dir():
        raise ConfigError("replay", f"{folder} is not a directory (a benchmark folder to replay)")
    if not (folder / "table.csv").is_file():
        raise ConfigError("replay", f"{folder} has no table.csv (no finished pair to replay)")
    try:
        manifest = benchmark_folder(folder)
    except ConfigError as exc:
        raise ConfigError("replay", exc.message) from None
    if manifest.get("definition_hash") != bench_hash:
        raise ConfigError("replay", f"{folder} played another benchmark definition ({manifest.get('benchmark')})")
    sources = {key: str(folder / "pairs" / pid) for key, pid in entry_pairs(folder, manifest).items()}
    if not sources:
        raise ConfigError("replay", f"{folder} holds no finished pair of its controller")
    return manifest, sources


def _holds_rows(table: Path) -> bool:
    try:
        with open(table, "rb") as fh:
            return len(fh.read(1 << 16).splitlines()) > 1
    except OSError:
        return False


def plan(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """(benchmark, entry, suite), validated whole before any file is touched."""
    from pydantic import ValidationError

    from mam_bench.benchmark.definition import (
        Entry,
        build_suite,
        definition_hash,
        find_definition,
        load_benchmark,
        parse_seeds,
    )
    from mam_bench.errors import config_error_from
    from mam_bench.registry import CONTROLLERS

    bench = load_benchmark(find_definition(args.definition))
    for s in bench.scenarios:
        if s.reference not in CONTROLLERS:
            raise ConfigError(
                f"definition.{s.name}.reference",
                f"unknown controller {s.reference!r} (known: {', '.join(sorted(CONTROLLERS))})",
            )
    if args.controller not in CONTROLLERS:
        raise ConfigError(
            "controller", f"unknown controller {args.controller!r} (known: {', '.join(sorted(CONTROLLERS))})"
        )
    if args.model and args.controller != "llm":
        raise ConfigError("model", f"only --controller llm takes a model (the controller is {args.controller})")
    if args.controller == "llm" and not args.model:
        raise ConfigError("model", "--controller llm needs --model PROVIDER:MODEL")
    if (args.replay is None) != (args.controller != "replay"):
        raise ConfigError("replay", "--controller replay needs --replay DIR, and only it takes one")
    options = _options(args)
    replays = None
    replay_of = ""
    tier = args.tier
    if args.controller == "replay":
        manifest, replays = _recorded(Path(args.replay), definition_hash(bench))
        if tier is not None and tier != manifest["tier"]:
            raise ConfigError("tier", f"{args.replay} was played on tier {manifest['tier']!r}, not {tier!r}")
        tier = manifest["tier"]
        replay_of = manifest["entry"]["controller"]
    tier = tier or "quick"
    seeds = parse_seeds(args.seeds if args.seeds is not None else bench.tier(tier).seeds)
    if replays is not None:
        replays = {k: v for k, v in replays.items() if k[2] in seeds}
        seeds = sorted({k[2] for k in replays})
        if not seeds:
            raise ConfigError("seeds", f"{args.replay} recorded none of these seeds")
    try:
        entry = Entry(
            controller=args.controller,
            models=tuple(args.model or ()),
            tier=tier,
            seeds=tuple(seeds),
            options=options,
            replay_of=replay_of,
        )
    except ValidationError as exc:
        err = config_error_from(exc)
        raise ConfigError("model" if err.field.startswith("models") else err.field, err.message) from None
    try:
        return bench, entry, build_suite(bench, entry, replays)
    except ValidationError as exc:  # a scenario the schema let through but no case can play
        raise config_error_from(exc, "definition.") from None


def check_controllers(suite: Any) -> None:
    """Every case's controller builds at a seed it plays (a replay is checked against its own seed)."""
    from mam_bench.preflight import build_controller
    from mam_bench.runner import discard, prepared

    for case in suite.cases:
        seed = (case.only_seeds or suite.seed_list())[0]
        try:
            spec = case.pair_spec(seed)
            if case.controller == "human":  # its choices come from the page: checked with none recorded
                spec = spec.model_copy(update={"controller_options": {**spec.controller_options, "played": []}})
            discard(build_controller(spec, prepared(spec)))
        except ConfigError as exc:
            raise ConfigError(f"{case.name}: {exc.field}", exc.message) from None


def manifest_of(bench: Any, entry: Any, suite: Any) -> dict[str, Any]:
    from mam_bench.benchmark.definition import definition_hash, roles

    # v1 folders carry no "score" key (absent reads as v1), so that they still resume
    version = {"score": bench.score} if bench.score != "v1" else {}
    if bench.score == "v3":
        version.update(shipped_ceiling(bench, entry))
    return {
        **version,
        "benchmark": bench.name,
        "definition_hash": definition_hash(bench),
        "tier": entry.tier,
        "seeds": list(entry.seeds),
        "entry": entry.model_dump(mode="json"),
        "scenarios": [{"name": s.name, "world": s.world, "objective": s.objective} for s in bench.scenarios],
        "roles": roles(bench, entry, suite),
    }


def shipped_ceiling(bench: Any, entry: Any) -> dict[str, Any]:
    """A v3 folder's copy of the shipped ceiling on its seeds (no plans), its hash and the tier's
    purpose: the leaderboard scores from the folder alone, and folders of two ceilings never meet."""
    import hashlib

    from mam_bench.benchmark.ceiling import load_ceiling

    data = load_ceiling(bench, entry.tier, list(entry.seeds))
    kept = {
        name: {
            "seeds": {
                str(seed): {k: s["seeds"][str(seed)][k] for k in ("ceiling", "by", "placebos")} for seed in entry.seeds
            }
        }
        for name, s in data["scenarios"].items()
    }
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]
    return {"purpose": bench.tier(entry.tier).purpose, "ceiling_hash": digest, "ceiling": {"scenarios": kept}}


def cost_gate(suite: Any, entry: Any, args: argparse.Namespace) -> None:
    """The estimate before any LLM call, and the --yes gate above CALL_GUARD calls or COST_GUARD USD."""
    from mam_bench.benchmark.estimate import estimate, estimate_text
    from mam_bench.benchmark.rates import recorded_rates
    from mam_bench.commands.experiment import CALL_GUARD

    rates = recorded_rates([*map(Path, args.rates_from), Path(args.out)])
    lines = estimate(suite, entry.options.get("price_table"), rates)
    models = {c.model for c in lines}
    known = [r.text() for m, r in rates.items() if m in models]
    head = "repairs at the recorded rate of " + "; ".join(known) if known else "before retries and repairs"
    print(f"estimate ({head}):\n" + estimate_text(lines), file=sys.stderr)
    calls = sum(c.calls if c.expected_calls is None else c.expected_calls for c in lines)
    usd = sum(c.usd or 0.0 for c in lines)
    if args.max_cost is not None and any(c.usd is None for c in lines):
        unpriced = next(c.model for c in lines if c.usd is None)
        raise ConfigError("max_cost", f"{unpriced} has no price, so --max-cost cannot bound it; give --price-table")
    bounded = args.max_calls is not None or args.max_cost is not None
    if (calls > CALL_GUARD or usd > COST_GUARD) and not bounded and not args.yes:
        raise ConfigError(
            "yes",
            f"about {calls} LLM calls, ${usd:.2f} (guards: {CALL_GUARD} calls, ${COST_GUARD:g}): pass --yes "
            "to start, or bound it with --max-calls / --max-cost",
        )


def handle(args: argparse.Namespace) -> int:
    from mam_bench.commands.experiment import check_limits, check_table, failures_and_exit
    from mam_bench.experiment.run_suite import check_provenance, run_experiment
    from mam_bench.records import write_whole
    from mam_bench.run_dir import check_out_dir, holds_experiment, non_empty, refuse_other_kind

    for field in ("out", "tier", "seeds", "definition", "replay", "address", "base_url", "api_key_env", "price_table"):
        non_empty(getattr(args, field), field)
    check_limits(args)
    for folder in args.rates_from:
        non_empty(folder, "rates_from")
        if not Path(folder).is_dir():
            raise ConfigError("rates_from", f"{folder} is not a directory (a run, experiment or benchmark folder)")
    out = Path(args.out)
    check_out_dir(out)
    refuse_other_kind(out, "experiment")
    inside = next((p for p in out.resolve().parents if (p / "benchmark.json").is_file()), None)
    if inside is not None:  # its pairs/ or any folder below: the two would mix their records
        raise ConfigError("out", f"{out} is inside the benchmark folder {inside}; give a folder of its own")
    old = out / "benchmark.json"
    if old.exists() and not old.is_file():
        raise ConfigError("out", f"{old} is not a regular file; move it away (it is this folder's manifest)")
    if holds_experiment(out) and not old.is_file():
        why = "is not a regular file" if old.exists() else "is missing"
        raise ConfigError(
            "out", f"{out} holds an experiment whose benchmark.json {why}; give the benchmark its own folder"
        )
    check_table(out / "table.csv")
    bench, entry, suite = plan(args)
    human = entry.controller == "human"
    if args.port is not None and not human:
        raise ConfigError("port", "only --controller human takes it (the page a person plays on)")
    if human and (args.executor != "local" or args.jobs not in (None, 1)):
        raise ConfigError("executor" if args.executor != "local" else "jobs", "a person plays one pair at a time here")
    if human:
        from mam_bench.dashboards.human_benchmark import check_port
        from mam_bench.extras import require

        require("dashboards")
        check_port(args.port or 8765)
    manifest = manifest_of(bench, entry, suite)
    if old.is_file():
        try:
            before = json.loads(old.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            raise ConfigError("out", f"{old} is damaged; move the folder away to start afresh") from None
        from mam_bench.benchmark.leaderboard import manifest_in_todays_names

        if not isinstance(before, dict) or manifest_in_todays_names(before) != json.loads(json.dumps(manifest)):
            raise ConfigError("out", f"{out} holds another benchmark run (controller, tier or seeds); use a new folder")
        if _holds_rows(out / "table.csv"):  # its rows must be this benchmark's (a resume keeps them)
            from mam_bench.commands.leaderboard import benchmark_folder

            benchmark_folder(out)
    check_controllers(suite)
    if entry.controller == "llm":
        cost_gate(suite, entry, args)
    check_provenance(out, suite, args.allow_mixed)  # refuses before the manifest is written
    startup.imports_done()
    out.mkdir(parents=True, exist_ok=True)
    write_whole(old, json.dumps(manifest, indent=2) + "\n")
    executor: Any = args.executor
    if human:  # the page is the executor: each pair is played there, one after another
        from mam_bench.dashboards.human_benchmark import SeatExecutor, progress_of

        progress = progress_of(bench, entry, suite)
        executor = partial(SeatExecutor, out, progress, args.port or 8765)
    outcome = run_experiment(
        suite, out, executor, args.address, args.jobs, args.max_cost, args.max_calls, allow_mixed=args.allow_mixed
    )
    from mam_bench.benchmark.leaderboard import build_board, leaderboard_markdown

    if outcome.finished or outcome.skipped:
        print(leaderboard_markdown(build_board([out])), end="")
    print(
        f"{outcome.finished} pairs run, {outcome.skipped} already finished, {len(outcome.failed)} failed -> {out} "
        f"(mam-bench report {out} --leaderboard)"
    )
    if outcome.invalid:
        print(f"{outcome.invalid} invalid pairs (controller failed too often): not scored, counted in `invalid`")
    return failures_and_exit(outcome, out)
