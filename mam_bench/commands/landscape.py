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
from mam_bench.registry import load, registration
from mam_bench.run_dir import check_file_path, check_name_lengths, claim_file, non_empty


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("landscape", help="reference landscape: the world's two axes x seeds (worlds that register one)")
    p.add_argument("world")
    p.add_argument(
        "--axis",
        action="append",
        metavar="NAME=V1,V2",
        help="one of the two parameters the world's landscape sweeps, with its values (its registration names them)",
    )
    p.add_argument("--thresholds", help="--axis threshold=...: comma-separated fractions, e.g. 1/2,3/4,6/7")
    p.add_argument("--vacancies", help="--axis vacancy=...: comma-separated shares, e.g. 0.25 or 1/4")
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


#: the shorthand options of an axis, beside `--axis NAME=...`
SHORTHAND = {"threshold": "thresholds", "vacancy": "vacancies"}


def swept_axes(args: argparse.Namespace, registered: tuple[str, ...]) -> dict[str, list[str]]:
    """Each registered axis with its values, from `--axis NAME=V1,V2` or its shorthand option;
    an axis the world does not sweep, or one left out, is refused."""
    axes: dict[str, list[str]] = {}
    for name, option in SHORTHAND.items():
        if getattr(args, option) is not None:
            axes[name] = _fractions(getattr(args, option), option)
    for item in args.axis or []:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not text.strip():
            raise ConfigError("axis", f"expected NAME=V1,V2, got {item!r}")
        if name in axes:
            raise ConfigError(f"axis.{name}", "given twice; give it once")
        values = [v.strip() for v in text.split(",")]
        if len(set(values)) != len(values) or "" in values:
            raise ConfigError(f"axis.{name}", "a value is empty or given twice (its cell would be written twice)")
        axes[name] = values
    if set(axes) != set(registered):
        want = " and ".join(registered)
        raise ConfigError("axis", f"{args.world} sweeps {want}: give each as --axis NAME=V1,V2, and no other")
    return {name: axes[name] for name in registered}


def landscape_source(world: str) -> Any:
    """What runs the world's landscape: its registered kernel (`ReferenceLandscape`), which imports
    without the world where it can; None for a world that registers none."""
    kernel = registration(world).landscape_kernel
    return load(kernel) if kernel else None


def _one(job: tuple[Any, Any, int, int]) -> dict[str, Any]:
    """One run: the landscape source, its cell's params (validated once per cell), seed, cap."""
    cls, p, seed, cap = job
    return {"seed": seed, **cls.reference_outcome(p, seed, cap)}


def _sweep(jobs: list[tuple[Any, Any, int, int]], workers: int) -> list[dict[str, Any]]:
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


def ours(path: Path, axes: tuple[str, ...]) -> bool:
    """A landscape CSV of these axes (its header is ours), which a rerun may replace."""
    with open(path, "rb") as fh:
        header = fh.readline(4096).rstrip(b"\r\n").decode("utf-8", "replace").split(",")
    return header[: len(axes) + 3] == [*axes, "seed", "status", "rounds"]


def same_grid(path: Path, axes: tuple[str, ...], cells: list[tuple[tuple[str, ...], dict]], seeds: list[int]) -> bool:
    """The CSV holds exactly this grid's cells and seeds (a rerun of the same landscape)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            had = {(*(r[a] for a in axes), r["seed"]) for r in csv.DictReader(fh)}
    except (OSError, UnicodeDecodeError, KeyError, csv.Error):
        return False
    return had == {(*values, str(s)) for values, _ in cells for s in seeds}


def write_csv(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write beside the target, then rename: a full disk leaves the old file, not half a table."""
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        with open(tmp, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(list(rows[0]))
            w.writerows([row[k] for k in rows[0]] for row in rows)
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ConfigError("out", f"cannot write {out}: {exc.strerror or exc}") from None


def summary_columns(cls: Any, row: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    """(header, outcome key, "mean" | "sd") of the per-cell summary: the landscape source's own
    `landscape_summary`, else the mean of every number it reports but the rounds."""
    own = getattr(cls, "landscape_summary", None)
    if own:
        return tuple(own)
    numbers = [k for k, v in row.items() if isinstance(v, float) and k not in ("seed", "rounds")]
    return tuple((f"mean_{k}", k, "mean") for k in numbers)


def print_summary(cls: Any, axes: tuple[str, ...], cells: list[tuple[str, ...]], rows: list[dict], n: int) -> None:
    """One line per cell: its axis values, each summary column over its seeds, and their statuses."""
    columns = summary_columns(cls, rows[0])
    widths = [max(len(h) + 1, 8) for h, _, _ in columns]
    head = [f"{a:>{len(a)}s}" for a in axes] + [f"{h:>{w}s}" for (h, _, _), w in zip(columns, widths)]
    print(" ".join(head) + "  statuses")
    for k, values in enumerate(cells):
        group = rows[k * n : (k + 1) * n]  # rows come cell by cell, seeds in order
        line = [f"{v:>{len(a)}s}" for a, v in zip(axes, values)]
        for (_, key, stat), w in zip(columns, widths):
            xs = [float(r[key]) for r in group]
            x = statistics.fmean(xs) if stat == "mean" else (statistics.stdev(xs) if len(xs) > 1 else 0.0)
            line.append(f"{x:{w}.4f}")
        counts: dict[str, int] = {}
        for r in group:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        status = ", ".join(f"{c} {s}" for s, c in sorted(counts.items()))
        print(" ".join(line) + f"  {status}")


def handle(args: argparse.Namespace) -> int:
    from mam_bench.limits import MAX_JOBS
    from mam_bench.params import parse_param_pairs
    from mam_bench.records import ensure_writable

    startup.hold_collector()
    from mam_bench.capabilities import ReferenceLandscape

    cls = landscape_source(args.world)
    startup.on_numba(announce_compiling)  # a kernel that loads without numba does not import it for this
    if not isinstance(cls, ReferenceLandscape):
        raise ConfigError("world", f"{args.world} has no reference landscape")
    registered = registration(args.world).landscape
    axes = swept_axes(args, registered)
    seeds = parse_seeds(args.seeds)
    extra = parse_param_pairs(args.param)
    for key in (*registered, "size"):
        if key in extra:
            option = "--size" if key == "size" else f"--axis {key}=..."
            raise ConfigError(f"param.{key}", f"the landscape sweeps {key}: set it with {option}")
    if not 1 <= args.max_rounds <= MAX_ROUNDS:
        raise ConfigError("max_rounds", f"must be between 1 and {MAX_ROUNDS}")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise ConfigError("jobs", f"must be between 1 and {MAX_JOBS}")
    if not 2 <= args.size <= MAX_SIZE:
        raise ConfigError("size", f"must be between 2 and {MAX_SIZE}")
    if len(seeds) > MAX_SEEDS:
        raise ConfigError("seeds", f"more than {MAX_SEEDS} seeds")
    cells, built = [], []
    for values in product(*axes.values()):
        params = {**extra, **dict(zip(registered, values)), "size": str(args.size)}
        built.append(cls.Params.from_strings(params))  # every cell validated before any run, once
        cells.append((values, params))
    non_empty(args.out, "out")
    out = Path(args.out)
    check_name_lengths(out)
    if out.is_dir():
        raise ConfigError("out", f"{out} is a directory; give a .csv file")
    check_file_path(out)
    if out.exists() and not out.is_file():
        raise ConfigError("out", f"{out} is not a regular file (a device or pipe); give a .csv file")

    def this_grid(path: Path) -> bool:  # a rerun may replace its own CSV, not another grid's
        return ours(path, registered) and same_grid(path, registered, cells, seeds)

    if out.is_file() and not args.force and ours(out, registered) and not this_grid(out):
        raise ConfigError(
            "out",
            f"{out} holds a landscape of another grid ({', '.join(registered)} or seeds); pass --force to move it "
            f"aside (to {out.name}.replaced-N) or choose another --out",
        )
    if out.exists() and not args.force:
        claim_file(out, False, this_grid)  # raises: refused before the sweep, not after it
    ensure_writable(out.parent if str(out.parent) else Path("."))
    jobs = [(cls, p, s, args.max_rounds) for p in built for s in seeds]
    started = time.perf_counter()
    first = _one(jobs[0])  # loads the compiled kernel here, once, before any worker forks
    startup.imports_done()
    results = [first, *_sweep(jobs[1:], args.jobs)]
    elapsed = time.perf_counter() - started
    rows = []
    it = iter(results)
    for values, _ in cells:
        for _ in seeds:
            rows.append({**dict(zip(registered, values)), **next(it)})
    aside = claim_file(out, args.force, this_grid)
    if aside is not None:
        print(f"moved the old {out.name} aside to {aside}", file=sys.stderr)
    write_csv(out, rows)
    print_summary(cls, registered, [values for values, _ in cells], rows, len(seeds))
    print(f"{len(rows)} runs in {elapsed:.2f} s ({len(rows) / max(elapsed, 1e-9):.0f} runs/s) -> {out}")
    startup.nothing_left_open()  # the CSV is closed and the pool shut down
    return 0
