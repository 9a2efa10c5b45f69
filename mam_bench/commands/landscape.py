"""`mam-bench landscape WORLD`: reference runs over a parameter grid x seeds, one CSV row per run."""

from __future__ import annotations

import argparse
import csv
import importlib.util
import os
import statistics
import sys
import time
from itertools import product
from pathlib import Path
from typing import Any

from mam_bench import startup
from mam_bench.errors import ConfigError
from mam_bench.registry import get_world, load, registration
from mam_bench.run_dir import check_file_path, check_name_lengths, claim_file, non_empty

COLUMNS = ("threshold", "vacancy", "seed", "status", "rounds", "final_satisfaction", "final_homophily")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("landscape", help="reference landscape: threshold x vacancy x seeds (worlds that register one)")
    p.add_argument("world")
    p.add_argument("--thresholds", required=True, help="comma-separated fractions, e.g. 1/2,3/4,6/7")
    p.add_argument("--vacancies", required=True, help="comma-separated shares, e.g. 0.25 or 1/4")
    p.add_argument("--seeds", default="0-19", help="a range A-B or a list 0,1,2")
    p.add_argument("--max-rounds", type=int, default=500)
    p.add_argument("--size", type=int, default=20, help="board side")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument(
        "--param",
        action="append",
        metavar="KEY=VALUE",
        help="any other world parameter, as for `run` (e.g. streams=pilot for the page's draws)",
    )
    p.add_argument("--out", required=True, help="CSV file")
    p.add_argument(
        "--force", action="store_true", help="replace an --out file not written by landscape (moved aside first)"
    )
    p.set_defaults(handler=handle)


#: upper bounds named in errors (a typo must not run for a week or fill the memory)
MAX_SEEDS, MAX_ROUNDS, MAX_SIZE = 100_000, 100_000, 500


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part[1:]:
                a, b = part[0] + part[1:].split("-", 1)[0], part[1:].split("-", 1)[1]
                if int(a) < 0:
                    raise ConfigError("seeds", f"expected a range A-B with 0 <= A <= B, got {part!r}")
                if int(b) < int(a):
                    raise ConfigError("seeds", f"the range {part} is reversed; write {b}-{a}")
                if int(b) - int(a) + 1 + len(seeds) > MAX_SEEDS:
                    raise ConfigError("seeds", f"more than {MAX_SEEDS} seeds")
                seeds.extend(range(int(a), int(b) + 1))
            elif part:
                seeds.append(int(part))
    except ConfigError:
        raise
    except ValueError:
        raise ConfigError("seeds", f"expected a range like 0-19 or a list like 0,1,2; got {text!r}") from None
    if not seeds or min(seeds) < 0:
        raise ConfigError("seeds", "need at least one seed, none negative")
    if len(set(seeds)) != len(seeds):
        from collections import Counter

        twice = min(s for s, n in Counter(seeds).items() if n > 1)
        raise ConfigError("seeds", f"seed {twice} is given twice (a repeated seed would count one run as several)")
    return seeds


def _fractions(text: str, field: str) -> list[str]:
    from mam_bench.params import fraction_text, parse_fraction  # pydantic: not for `--help`

    out: list[str] = []
    for part in text.split(","):
        try:
            value = fraction_text(parse_fraction(part))
        except ValueError as exc:
            raise ConfigError(field, str(exc)) from None
        if value in out:
            raise ConfigError(field, f"{value} is given twice (its cell would be written twice)")
        out.append(value)
    return out


def landscape_source(world: str) -> Any:
    """What runs the world's landscape: its registered kernel (no Mesa to import), else the world class."""
    kernel = registration(world).landscape_kernel
    return load(kernel) if kernel else get_world(world)


def _one(job: tuple[str, dict[str, Any], int, int]) -> dict[str, Any]:
    world, params, seed, cap = job
    cls = landscape_source(world)
    p = cls.Params.from_strings(params)
    return {"seed": seed, **cls.reference_outcome(p, seed, cap)}


def _sweep(jobs: list[tuple[str, dict[str, Any], int, int]], workers: int) -> list[dict[str, Any]]:
    """Every job's result, in order, on `workers` forked processes (here, if only one)."""
    if workers <= 1 or len(jobs) < 2:
        return [_one(j) for j in jobs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork, where the platform has it: workers inherit the loaded kernel and world (a spawned
    # worker imports Mesa and the kernel again; some installs make spawn the default)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        return list(pool.map(_one, jobs, chunksize=max(1, len(jobs) // (16 * workers))))


def announce_compiling() -> None:
    """Say once per command, on stderr, when numba compiles a kernel (a cache miss: a fresh
    install or an edited kernel): the first landscape then takes tens of seconds, not one."""
    if "numba" not in sys.modules and importlib.util.find_spec("numba") is None:
        return
    from numba.core import event

    listener = _ANNOUNCER.get("listener")
    if listener is None:

        class Announce(event.Listener):
            said = False

            def on_start(self, _event: Any) -> None:
                if not self.said:
                    self.said = True
                    print(
                        "compiling the landscape kernel (once after an install or an edit; later runs load "
                        "it from numba's cache)...",
                        file=sys.stderr,
                        flush=True,
                    )

            def on_end(self, _event: Any) -> None:
                pass

        listener = _ANNOUNCER["listener"] = Announce()
        event.register("numba:compile", listener)
    listener.said = False


#: the one compile listener of this process (a long-lived caller runs many landscapes)
_ANNOUNCER: dict[str, Any] = {}


def ours(path: Path) -> bool:
    """A landscape CSV (its header is ours), which a rerun may replace."""
    with open(path, "rb") as fh:
        return fh.readline(4096).rstrip(b"\r\n") == ",".join(COLUMNS).encode()


def same_grid(path: Path, cells: list[tuple[str, str, dict[str, Any]]], seeds: list[int]) -> bool:
    """The CSV holds exactly this grid's cells and seeds (a rerun of the same landscape)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            had = {(r["threshold"], r["vacancy"], r["seed"]) for r in csv.DictReader(fh)}
    except (OSError, UnicodeDecodeError, KeyError, csv.Error):
        return False
    return had == {(t, v, str(s)) for t, v, _ in cells for s in seeds}


def write_csv(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write beside the target, then rename: a full disk leaves the old file, not half a table."""
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        with open(tmp, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(COLUMNS)
            w.writerows([row[k] for k in COLUMNS] for row in rows)
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ConfigError("out", f"cannot write {out}: {exc.strerror or exc}") from None


def handle(args: argparse.Namespace) -> int:
    from mam_bench.experiment.executors import MAX_JOBS
    from mam_bench.params import parse_param_pairs
    from mam_bench.records import ensure_writable

    startup.hold_collector()
    from mam_bench.capabilities import ReferenceLandscape

    announce_compiling()
    cls = landscape_source(args.world)
    if not isinstance(cls, ReferenceLandscape):
        raise ConfigError("world", f"{args.world} has no reference landscape")
    thresholds = _fractions(args.thresholds, "thresholds")
    vacancies = _fractions(args.vacancies, "vacancies")
    seeds = parse_seeds(args.seeds)
    extra = parse_param_pairs(args.param)
    for key, option in (("threshold", "--thresholds"), ("vacancy", "--vacancies"), ("size", "--size")):
        if key in extra:
            raise ConfigError(f"param.{key}", f"the landscape sweeps {key}: set it with {option}")
    if not 1 <= args.max_rounds <= MAX_ROUNDS:
        raise ConfigError("max_rounds", f"must be between 1 and {MAX_ROUNDS}")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise ConfigError("jobs", f"must be between 1 and {MAX_JOBS}")
    if not 2 <= args.size <= MAX_SIZE:
        raise ConfigError("size", f"must be between 2 and {MAX_SIZE}")
    if len(seeds) > MAX_SEEDS:
        raise ConfigError("seeds", f"more than {MAX_SEEDS} seeds")
    cells = []
    for t, v in product(thresholds, vacancies):
        params = {**extra, "threshold": t, "vacancy": v, "size": str(args.size)}
        cls.Params.from_strings(params)  # validate every cell before any run
        cells.append((t, v, params))
    non_empty(args.out, "out")
    out = Path(args.out)
    check_name_lengths(out)
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give a .csv file")
    check_file_path(out)
    if out.exists() and not out.is_file():
        raise ConfigError("out", f"{out} is not a regular file (a device or pipe); give a .csv file")

    def this_grid(path: Path) -> bool:  # a rerun may replace its own CSV, not another grid's
        return ours(path) and same_grid(path, cells, seeds)

    if out.is_file() and not args.force and ours(out) and not this_grid(out):
        raise ConfigError(
            "out",
            f"{out} holds a landscape of another grid (thresholds, vacancies or seeds); pass --force to move it "
            f"aside (to {out.name}.replaced-N) or choose another --out",
        )
    if out.exists() and not args.force:
        claim_file(out, False, this_grid)  # raises: refused before the sweep, not after it
    ensure_writable(out.parent if str(out.parent) else Path("."))
    jobs = [(args.world, params, s, args.max_rounds) for _, _, params in cells for s in seeds]
    started = time.perf_counter()
    first = _one(jobs[0])  # loads the compiled kernel here, once, before any worker forks
    startup.imports_done()
    results = [first, *_sweep(jobs[1:], args.jobs)]
    elapsed = time.perf_counter() - started
    rows = []
    it = iter(results)
    for t, v, _ in cells:
        for _ in seeds:
            rows.append({"threshold": t, "vacancy": v, **next(it)})
    aside = claim_file(out, args.force, this_grid)
    if aside is not None:
        print(f"moved the old {out.name} aside to {aside}", file=sys.stderr)
    write_csv(out, rows)
    print(f"{'threshold':>9s} {'vacancy':>7s} {'mean_sat':>9s} {'sd_sat':>8s} {'mean_oeh':>9s}  statuses")
    for k, (t, v, _) in enumerate(cells):
        group = rows[k * len(seeds) : (k + 1) * len(seeds)]  # rows come cell by cell, seeds in order
        sats = [r["final_satisfaction"] for r in group]
        sd = statistics.stdev(sats) if len(sats) > 1 else 0.0
        oeh = statistics.fmean(r["final_homophily"] for r in group)
        counts: dict[str, int] = {}
        for r in group:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        status = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
        print(f"{t:>9s} {v:>7s} {statistics.fmean(sats):9.4f} {sd:8.4f} {oeh:9.4f}  {status}")
    print(f"{len(rows)} runs in {elapsed:.2f} s ({len(rows) / max(elapsed, 1e-9):.0f} runs/s) -> {out}")
    startup.nothing_left_open()  # the CSV is closed and the pool shut down
    return 0
