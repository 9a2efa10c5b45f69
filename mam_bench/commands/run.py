"""`mam-bench run WORLD ...`: one paired run (reference and treatment), a short table, records."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mam_bench import startup
from mam_bench.errors import BackendFailed, ConfigError
from mam_bench.inputs import KEY as INPUTS_KEY
from mam_bench.inputs import check_unchanged
from mam_bench.outcome import MAX_POLICY_ERROR_SHARE
from mam_bench.preflight import LLM_ONLY, ORACLE_ONLY
from mam_bench.registry import controller_names
from mam_bench.run_dir import DirLock, check_out_dir, holds_experiment, holds_run, move_aside, refuse_other_kind
from mam_bench.status import Validity

if TYPE_CHECKING:  # the runner brings Mesa, numpy and pydantic; `run --help` must not wait for them
    from mam_bench.runner import PairSpec

#: LLM, replay and planner flags passed through to the controller when given (one list: preflight's)
CONTROLLER_FLAGS = (*LLM_ONLY, "replay", *ORACLE_ONLY)
#: rule-based treatments every run plays against the same reference: a lift is never shown alone
BASELINES = ("stay", "mimic")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run one reference/treatment pair and write its records")
    p.add_argument("world", nargs="?", help="world name (see `mam-bench worlds`)")
    p.add_argument("--seed", default="0", help="one seed (several seeds: `mam-bench experiment`)")
    p.add_argument(
        "--controller",
        "--policy",
        dest="controller",
        default="rule",
        help=f"the controller (--policy: its old name): one of {', '.join(controller_names())}",
    )
    p.add_argument("--objective", help="steering objective (default: the world's own)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--influence", type=int, help="number of influence agents (ids chosen by the world)")
    g.add_argument("--influence-ids", help="comma-separated ids of the influence agents")
    p.add_argument("--rounds", type=int, help="treatment rounds (default: the world's horizon)")
    p.add_argument("--param", action="append", metavar="KEY=VALUE", help="world parameter (repeatable)")
    p.add_argument("--out", help="run directory (default runs/WORLD-sSEED-CONTROLLER)")
    p.add_argument("--board-window", type=int, default=3, help="rounds of board history shown (default 3)")
    p.add_argument("--post-cap", type=int, default=4000, help="characters per board post (default 4000)")
    p.add_argument("--resume", metavar="DIR", help="continue a killed run from its directory")
    p.add_argument(
        "--max-policy-errors",
        type=float,
        default=MAX_POLICY_ERROR_SHARE,
        metavar="SHARE",
        help="a run whose controller failed more than this share of decisions is invalid (exit 3; default %(default)s)",
    )
    p.add_argument(
        "--settle",
        action="store_true",
        help="after the horizon, hand influence agents back to the rule and run to rest",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="run into an --out that holds a run: the old run is moved aside to OUT.replaced-N",
    )
    llm = p.add_argument_group("LLM controller (--controller llm)")
    llm.add_argument("--model", help="PROVIDER:MODEL for init_chat_model, or local:gemma3-270m")
    llm.add_argument("--base-url", help="OpenAI-compatible endpoint (OpenRouter, vLLM, Ollama, LM Studio)")
    llm.add_argument("--api-key-env", help="name of the environment variable holding the API key")
    llm.add_argument("--temperature", type=float)
    llm.add_argument("--top-p", type=float, help="nucleus sampling (default: the provider's)")
    llm.add_argument("--max-tokens", type=int, help="answer tokens per call (default 1024; local:gemma3-270m 96)")
    llm.add_argument(
        "--structured",
        choices=("auto", "json_schema", "json_object_schema", "json_object", "none"),
        help="structured output: auto (default) steps down json_schema -> json_object_schema -> json_object "
        "-> text when refused",
    )
    llm.add_argument(
        "--prompt-style",
        choices=("full", "menu", "compact"),
        help="full: the world's whole prompt; menu: a short one with a numbered menu of the legal actions; "
        "compact: the menu (at most 8 lines unless --menu-cap) with the rules in a line "
        "(default: compact for local models, else full)",
    )
    llm.add_argument("--menu-seed", type=int, help="seed of the menu's shuffle (default 0)")
    llm.add_argument(
        "--sampling-seed",
        type=int,
        help="base of each call's sampling seed, drawn per round, agent, phase and attempt (default 0)",
    )
    llm.add_argument(
        "--menu-cap", type=int, help="menu lines at most: the null action and a shuffled draw of the rest (default all)"
    )
    llm.add_argument(
        "--stall-timeout",
        type=float,
        metavar="SECONDS",
        help="stop (exit 3) when no call was answered for this long (default 300; local models 3600)",
    )
    llm.add_argument("--max-concurrency", type=int, help="concurrent calls per phase")
    llm.add_argument("--cache", help="SQLite response cache (default: DIR/llm_cache.sqlite)")
    llm.add_argument("--one-call", action="store_true", default=None, help="message and action in one call")
    llm.add_argument("--price-table", help="JSON file: model -> {input, output} USD per million tokens")
    llm.add_argument("--timeout", type=float, help="seconds per call (default 60; local models 3600)")
    llm.add_argument("--max-retries", type=int, help="transport retries per call")
    llm.add_argument(
        "--deadline",
        type=float,
        metavar="SECONDS",
        help="the whole run's time limit; past it the run stops with exit 3 (records kept)",
    )
    llm.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help="the run's LLM spend limit, checked before each call (its estimated cost from the price "
        "table); a call that would pass it stops the run with exit 3 (records kept); needs a priced model",
    )
    llm.add_argument("--replay", metavar="RUN_DIR", help="run directory whose decisions.jsonl to replay")
    llm.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="another controller option, e.g. agent=session or context_tokens=3000 (repeatable)",
    )
    plan = p.add_argument_group(
        "planner (--controller oracle, a named upper bound that plans on forks of the treatment)"
    )
    plan.add_argument("--candidates", type=int, help="random legal actions tried per agent (default 3)")
    plan.add_argument("--lookahead", type=int, help="rounds each rollout plays (default: to the horizon)")
    plan.add_argument("--rollouts", type=int, help="rollouts per round, at most (default: no cap)")
    plan.add_argument("--budget", type=float, help="seconds of planning per round, at most (default: none)")
    plan.add_argument("--sweeps", type=int, help="coordinate-ascent passes over the agents per round (default 2)")
    plan.add_argument("--plan-seed", type=int, help="the planner's own stream (default 0)")
    plan.add_argument(
        "--jobs", type=int, help="its rollouts on this many worker processes, planning as in process (default: none)"
    )
    plan.add_argument("--executor", choices=("local", "ray"), help="where the rollouts run with --jobs (default local)")
    p.set_defaults(handler=handle)
    DEFAULTS.update({a.dest: a.default for a in p._actions if a.dest not in ("help", "resume")})


#: upper bounds named in errors
MAX_ROUNDS, MAX_SEED = 100_000, 2**63 - 1

#: the run parser's defaults: a flag that differs from them was given (and --resume refuses it)
DEFAULTS: dict[str, Any] = {}
#: flags whose value must not be an empty string
NON_EMPTY = (
    "world",
    "controller",
    "objective",
    "out",
    "model",
    "base_url",
    "api_key_env",
    "cache",
    "price_table",
    "replay",
    "influence_ids",
)


def seed_of(text: str | int) -> int:
    """One seed; a range or list gets a pointer to `experiment`, which runs several."""
    try:
        return int(text)
    except ValueError:
        pass
    if any(ch in str(text) for ch in "-,") and str(text).lstrip("-"):
        raise ConfigError(
            "seed",
            f"{text!r} is several seeds; `mam-bench run` plays one. For a range use "
            f"`mam-bench experiment SUITE.yaml` with `seeds: {text}`, or loop over --seed",
        )
    raise ConfigError("seed", f"expected a whole number, got {text!r}")


def spec_from_args(args: argparse.Namespace) -> PairSpec:
    for name in NON_EMPTY:
        value = getattr(args, name, None)
        if isinstance(value, str) and not value.strip():
            raise ConfigError(name, "must not be empty")
    if not args.world:
        raise ConfigError("world", "give a world name (see `mam-bench worlds`) or --resume DIR")
    seed = seed_of(args.seed)
    for name, value, top in (
        ("seed", seed, MAX_SEED),
        ("rounds", args.rounds, MAX_ROUNDS),
        ("board_window", args.board_window, 1000),
        ("post_cap", args.post_cap, 100_000),
    ):
        if value is not None and value > top:
            raise ConfigError(name, f"{value} is above the limit of {top}")
    ids = None
    if args.influence_ids:
        try:
            ids = tuple(int(x) for x in args.influence_ids.split(",") if x.strip())
        except ValueError:
            raise ConfigError(
                "influence_ids", f"expected comma-separated integers, got {args.influence_ids!r}"
            ) from None
        if not ids:
            raise ConfigError("influence_ids", f"expected comma-separated integers, got {args.influence_ids!r}")
    from mam_bench.params import parse_param_pairs

    try:
        options: dict[str, Any] = parse_param_pairs(args.option)
    except ConfigError as exc:
        raise ConfigError("option", exc.message) from None
    flags = {k: getattr(args, k) for k in CONTROLLER_FLAGS if getattr(args, k, None) is not None}
    for key in sorted(set(flags) & set(options)):  # which one would win is a guess: refused
        flag = "--" + key.replace("_", "-")
        raise ConfigError("option", f"{key} is given twice ({flag} {flags[key]} and --option {key}=...); give it once")
    options.update(flags)
    if args.controller == "llm" and not args.model:
        raise ConfigError(
            "model",
            "the llm controller needs --model PROVIDER:MODEL (e.g. openai:gpt-4o-mini, "
            "or local:gemma3-270m with the [local] extra)",
        )
    try:
        return build_spec(args, seed, ids, options)
    except ConfigError as exc:  # name the flag the user typed, not the record's field
        raise ConfigError(USER_FIELDS.get(exc.field, exc.field), exc.message) from None


#: record field -> the flag that sets it, for errors
USER_FIELDS = {"max_policy_error_share": "max_policy_errors"}


def build_spec(args: argparse.Namespace, seed: int, ids: tuple[int, ...] | None, options: dict[str, Any]) -> PairSpec:
    from mam_bench.params import parse_param_pairs
    from mam_bench.runner import PairSpec

    return PairSpec.build(
        world=args.world,
        seed=seed,
        params=parse_param_pairs(args.param),
        objective=args.objective,
        controller=args.controller,
        influence=args.influence,
        influence_ids=ids,
        rounds=args.rounds,
        board_window=args.board_window,
        post_cap=args.post_cap,
        controller_options=options,
        settle=args.settle,
        max_policy_error_share=args.max_policy_errors,
    )


def resume_spec(args: argparse.Namespace) -> tuple[PairSpec, Path]:
    """The spec of a killed run, from DIR/spec.json; other flags would be ignored, so they are refused."""
    given = [k for k, default in DEFAULTS.items() if k != "handler" and getattr(args, k, default) != default]
    if given:
        flag = "world" if given[0] == "world" else "--" + given[0].replace("_", "-")
        raise ConfigError("resume", f"{flag} cannot be combined with --resume (the run's spec.json says everything)")
    out = Path(args.resume)
    from mam_bench.runner import PairSpec

    if not out.exists():
        raise ConfigError("resume", f"{out} does not exist")
    if not out.is_dir():
        raise ConfigError("resume", f"{out} is not a folder (give the run directory)")
    if holds_experiment(out):
        raise ConfigError(
            "resume", f"{out} is an experiment folder; resume it with `mam-bench experiment SUITE --out {out}`"
        )
    spec_file = out / "spec.json"
    if not spec_file.exists():
        raise ConfigError("resume", f"{out} holds no spec.json (not a run directory)")
    check_records(out)
    from mam_bench.record_schema import read_record, spec_fields

    data = spec_fields(read_record(read_json_record(spec_file), spec_file.name))
    data.pop(INPUTS_KEY, None)  # checked against the files once the spec is prepared
    try:
        spec = PairSpec.build(**data)
    except ConfigError as exc:
        raise ConfigError("resume", f"{spec_file} is damaged: {exc}") from None
    return spec, out


def read_json_record(path: Path) -> dict[str, Any]:
    """A JSON record (spec.json, result.json) as an object; anything else is `resume: ... damaged`."""
    if not path.is_file():
        raise ConfigError("resume", f"{path} is not a regular file; nothing was changed")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise ConfigError("resume", f"{path} is damaged: nested too deeply; nothing was changed") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError("resume", f"{path} is damaged: {exc}; nothing was changed") from None
    if not isinstance(data, dict):
        raise ConfigError("resume", f"{path} is damaged: expected a JSON object; nothing was changed")
    return data


def check_records(out: Path) -> None:
    """Every record file a resume would replace must be one: a regular, readable file whose
    every line parses. Checked whole before the rerun removes anything (a damaged folder is
    left exactly as it was, for the user to look at). The one thing a kill leaves, a last
    line cut short in an unfinished run, is expected: the rerun writes that line again."""
    from mam_bench.records import RECORD_FILES
    from mam_bench.steering.replay import verify_chain

    unfinished = not (out / "result.json").exists()
    for name in (*RECORD_FILES, "llm_cache.sqlite"):
        path = out / name
        if not path.exists() and not path.is_symlink():
            continue
        if not path.is_file():
            raise ConfigError(
                "resume", f"{path} is not a regular file (a folder or a broken link); nothing was changed"
            )
        if name.endswith(".json"):
            read_json_record(path)
        elif name.endswith(".jsonl"):
            rows = jsonl_rows(path, allow_cut_tail=unfinished)
            if name == "decisions.jsonl":
                try:
                    verify_chain(path, rows)
                except ConfigError as exc:
                    raise ConfigError("resume", f"{exc.message}; nothing was changed") from None
        elif name.endswith(".snapshots"):
            from mam_bench.snapshots import read_snapshots

            try:
                read_snapshots(path, allow_cut_tail=unfinished)
            except ConfigError as exc:
                raise ConfigError("resume", f"{exc.message}; nothing was changed") from None
        elif not os.access(path, os.R_OK | os.W_OK):
            raise ConfigError("resume", f"cannot read and write {path}; nothing was changed")


def jsonl_rows(path: Path, allow_cut_tail: bool) -> list[dict[str, Any]]:
    """The rows of a JSONL record for a resume's check; a damaged line is `resume: ...`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError("resume", f"cannot read {path}: {exc.strerror or exc}; nothing was changed") from None
    if allow_cut_tail and data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]  # the line being written when the run was killed
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError("resume", f"{path} is not a UTF-8 text file; nothing was changed") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            row = None
        if not isinstance(row, dict):
            raise ConfigError("resume", f"{path} line {number} is damaged (not a JSON object); nothing was changed")
        rows.append(row)
    return rows


def finished_result(out: Path) -> dict[str, Any] | None:
    """The result of a run that already finished (its result.json), which a resume keeps."""
    path = out / "result.json"
    if not path.is_file():
        return None
    from mam_bench.record_schema import read_record

    result = read_record(read_json_record(path), path.name)
    needed = ("world", "metric", "reference", "treatment", "delta", "lift", "direction", "influence_ids")
    if not all(k in result for k in needed):
        raise ConfigError("resume", f"{path} is damaged: it lacks {[k for k in needed if k not in result]}")
    return result


def process_age() -> float:
    """Seconds since this process started (Linux /proc), so --deadline counts Python's start-up too."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def run_within(spec: PairSpec, out: Path, prep: Any, started: float) -> dict[str, Any]:
    """Play the pair; with --deadline the whole run (counted from the command's start) is cut
    at that time: the pending calls are cancelled and the run stops with exit 3, records kept."""
    import asyncio

    from mam_bench.runner import arun_pair, run_async, run_pair

    seconds = spec.controller_options.get("deadline")
    if not seconds:
        return run_pair(spec, out, prep=prep, baselines=BASELINES)
    left = seconds - (time.monotonic() - started)

    async def bounded() -> dict[str, Any]:
        try:
            return await asyncio.wait_for(
                arun_pair(spec, out, prep=prep, baselines=BASELINES), timeout=max(left, 0.001)
            )
        except TimeoutError:
            raise BackendFailed(f"the run's --deadline of {seconds:g}s passed") from None

    return run_async(bounded())


def handle(args: argparse.Namespace) -> int:
    started = time.monotonic() - process_age()
    from mam_bench.runner import discard, prepare_run  # after the clock starts: the import is part of the run

    startup.hold_collector()

    if args.resume:
        spec, out = resume_spec(args)
    else:
        spec = spec_from_args(args)
        out = Path(args.out or f"runs/{spec.world}-s{spec.seed}-{spec.controller}")
    try:
        prep = prepare_run(spec)  # every check before any work, and before any file is touched
    except ConfigError as exc:
        if not args.resume:
            raise
        raise ConfigError("resume", f"{out / 'spec.json'} holds a bad {exc.field}: {exc.message}") from None
    if args.resume:
        check_unchanged(read_json_record(out / "spec.json").get(INPUTS_KEY), prep, out / "spec.json")
    done = finished_result(out) if args.resume else None
    try:
        return run_prepared(args, spec, out, prep, done, started)
    except BaseException:
        discard(prep.controller)  # a check after `prepare_run` failed (a run closes its own controller)
        raise


def run_prepared(args: argparse.Namespace, spec: PairSpec, out: Path, prep: Any, done: Any, started: float) -> int:
    """The run once `prepare_run` passed: the output folder's checks, then the pair."""
    from mam_bench.runner import discard

    if done is not None:  # nothing to continue: rerunning could only replace a result
        discard(prep.controller)
        print(f"{out} is already finished; its result is kept (a new run needs a new --out)", file=sys.stderr)
        try:
            print(format_result(done, out))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError("resume", f"{out / 'result.json'} is damaged ({type(exc).__name__}: {exc})") from None
        return exit_code(done)
    startup.imports_done()  # the world and its modules are loaded
    if prep.horizon > MAX_ROUNDS:
        raise ConfigError("rounds", f"{prep.horizon} treatment rounds; at most {MAX_ROUNDS}")
    cap = prep.reference_cap
    if cap > MAX_ROUNDS:
        raise ConfigError("param.max_rounds", f"the reference may run {cap} rounds; at most {MAX_ROUNDS}")
    replay = spec.controller_options.get("replay")
    if replay and Path(replay).resolve() in (out.resolve(), (out / "decisions.jsonl").resolve()):
        raise ConfigError("replay", "the replayed run cannot be the --out of the replay (it would be replaced)")
    check_out_dir(out)
    refuse_other_kind(out, "run")
    refuse = not args.resume and not args.force
    if refuse and holds_run(out):
        raise ConfigError(
            "out",
            f"{out} already holds a run; pass --force to move it aside (to "
            f"{out.name}.replaced-N) or --resume {out} to continue it",
        )
    from mam_bench.placement import placement_line

    print(placement_line(prep), flush=True)
    if engine := prep.params.engine_line():
        print(engine, flush=True)
    options_line = prep.controller.options_line()
    if options_line:
        print(options_line, flush=True)
    cost_line = prep.controller.cost_line(prep)
    if cost_line:
        print(cost_line, flush=True)
    with DirLock(out):
        if not args.resume and holds_run(out):
            if refuse:  # another process finished a run there after our first look
                raise ConfigError("out", f"{out} already holds a run")
            print(f"moved the old run aside to {move_aside(out)}", file=sys.stderr)
        result = run_within(spec, out, prep, started)
    print(format_result(result, out))
    return exit_code(result)


#: where every word the table prints is explained (statuses, lift, baselines, audit outcomes)
GLOSSARY = "docs/glossary.md"


def _fmt(v: Any) -> str:
    from mam_bench.numbers import plain

    return plain(v) if isinstance(v, float) else str(v)


def _baseline_text(name: str, b: dict[str, Any]) -> str:
    from mam_bench.numbers import signed

    if b.get("lift") is None:
        return f"{name}: n/a ({b.get('reason', b.get('status'))})"
    return f"{name} lift {signed(b['lift'])} (delta {signed(b['delta'])})"


def reading(result: dict[str, Any]) -> str | None:
    """One sentence that reads the lift against its baselines: what this seed shows, and what it cannot."""
    from mam_bench.numbers import signed

    controller, lift = result["controller"]["name"], result["lift"]
    shown = {n: b["lift"] for n, b in (result.get("baselines") or {}).items() if b.get("lift") is not None}
    if controller == "rule":
        if lift != 0:  # said as an error by `null_steering_broken`
            return None
        return "reading: null steering holds: the rule treatment replayed the reference, lift exactly 0"
    if not shown or controller in shown:
        return None
    best = max(shown, key=lambda n: shown[n])
    bar = f"the better baseline ({best} {signed(shown[best])})"
    if lift > shown[best]:
        verdict = f"beats {bar}: on this seed {controller} steers"
    else:
        verdict = f"does not beat {bar}: on this seed {controller} adds nothing"
    return (
        f"reading: lift {signed(lift)} {verdict} beyond removing (stay) or re-drawing (mimic) these agents; "
        "one seed is an anecdote (`mam-bench experiment` runs many)"
    )


def null_steering_broken(result: dict[str, Any]) -> str | None:
    """The error line when the rule treatment's lift is not exactly 0: the pairing is unsound
    (most often an outcome that masks through `influence_ids`, empty in the reference)."""
    from mam_bench.numbers import signed

    if result["controller"]["name"] != "rule" or result["lift"] == 0:
        return None
    return (
        f"null steering broken: lift {signed(result['lift'])}, expected 0; run check_world "
        "(`from mam_bench.testing import check_world; check_world(YourWorld)` names the round, metric and agent "
        "that differ)"
    )


def exit_code(result: dict[str, Any]) -> int:
    """3 for a run whose lift measures something else (an invalid controller, broken null steering)."""
    broken = null_steering_broken(result)
    if broken:
        print(f"error: {broken}", file=sys.stderr)
        return 3
    validity = result.get("validity") or {}
    if validity.get("status") == Validity.INVALID:  # the lift would measure the null action, not the controller
        print(
            f"error: invalid run: the controller failed {validity['policy_errors']} of {validity['decisions']} "
            f"decisions (more than {validity['max_policy_error_share']:.0%}); first error: {validity['first_error']}",
            file=sys.stderr,
        )
        return 3
    return 0


def cost_text(llm: dict[str, Any]) -> str:
    """The run's LLM cost in USD, or "unpriced" for a model the price table does not name (its
    cost would read $0.0000, as if free; give --price-table)."""
    if llm.get("priced") is False:
        return "unpriced (no --price-table entry for this model)"
    return f"${llm.get('cost', 0.0):.4f}"


def format_result(result: dict[str, Any], out: Path | None = None) -> str:
    from mam_bench.numbers import signed

    metric, sec = result["metric"], result.get("secondary_metric")
    cols = list(dict.fromkeys([metric] + ([sec] if sec else [])))  # a metric is one column, however named
    sign = "higher" if result["direction"] > 0 else "lower"
    lines = [
        f"{result['world']} seed {result['seed']} | controller {result['controller']['name']}"
        f" | objective {result['objective']} ({sign} {metric} is better)"
        f" | {len(result['influence_ids'])} influence agents",
        f"{'':10s} {'status*':18s} {'rounds':>6s}  " + "  ".join(f"{c:>12s}" for c in cols),
    ]
    ref = result["reference"]
    # the reference row shows the values the delta compares (the reference at the treatment's
    # last round, its final state held), and says so when the reference went on further
    at = ref.get("compared_round", ref["rounds"])
    shown = {
        "reference": (min(at, ref["rounds"]), ref.get("compared", ref["final"])),
        "treatment": (result["treatment"]["rounds"], result["treatment"]["final"]),
    }
    for run in ("reference", "treatment"):
        r = result[run]
        rounds, values = shown[run]
        cells = "  ".join(f"{_fmt(values.get(c)):>12s}" for c in cols)
        lines.append(f"{run:10s} {r['status']:18s} {rounds:>6d}  " + cells)
    if at < ref["rounds"]:
        finals = ", ".join(f"{c} {_fmt(ref['final'].get(c))}" for c in cols)
        lines.append(
            f"(the reference is compared at round {at}, the treatment's last; its status is where it ended, "
            f"round {ref['rounds']}: {finals})"
        )
    rel = result.get("relative")
    rel_s = f"{rel:+.2%}" if isinstance(rel, float) else "n/a"
    lines.append(f"delta {signed(result['delta'])}   lift {signed(result['lift'])}   relative {rel_s}")
    if result.get("baselines"):
        lines.append(
            "baselines (same seed and reference): "
            + ", ".join(_baseline_text(name, b) for name, b in result["baselines"].items())
        )
    if result.get("settled"):
        st = result["settled"]
        lines.append(
            f"settled (rule from round {st['from_round']} to {st['rounds']}, {st['status']}): "
            f"persisting lift {signed(st['lift'])}"
        )
    a = result["treatment"]["audit"]
    failed = ", ".join(f"{k} {v}" for k, v in a["outcomes"].items() if k not in ("accepted", "stay"))
    lines.append(
        f"audit: accepted {a['accepted']}, stay {a['stay']}, failed {a['failed']}"
        + (f" ({failed})" if failed else "")
        + f" | mismatches {a['mismatches']} | {a['decisions']} = "
        + f"{len(result['influence_ids'])} x {result['treatment']['rounds']}"
        + (" ok" if a["identity_holds"] else " VIOLATED")
    )
    llm = result.get("llm") or {}
    if llm.get("calls") is not None:
        lines.append(
            f"llm: {llm.get('calls', 0)} calls, {llm.get('input_tokens', 0)} in / "
            f"{llm.get('output_tokens', 0)} out tokens,"
            f" cost {cost_text(llm)}, {llm.get('cache_hits', 0)} cache hits, "
            f"{llm.get('policy_errors', 0)} policy errors"
        )
    said = reading(result)
    if said:
        lines.append(said)
    if out is not None:
        lines.append(f"records: {out}")
    lines.append(f"* statuses and the other terms: {GLOSSARY}")
    return "\n".join(lines)
