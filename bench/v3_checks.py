"""The checks a v3 benchmark is frozen and shipped by, read from `mam-bench ceiling` files alone.

    python -m bench.v3_checks entry CEILING.json
        per scenario, on calibration seeds: (a) the ceiling's headroom over the best placebo with a
        95% interval above 0, (b) some controller we ship strictly between 0 and 1; exit 1 if any fails
    python -m bench.v3_checks blocks CEILING.json CEILING.json ...
        per held-out block: the scenarios scored, and the heuristic's, greedy's and random's aggregate
        with its interval; exit 1 unless every block scores the same scenarios and the heuristic's
        interval lies strictly inside (0, 1) on each
    python -m bench.v3_checks agreement LOCAL.json RANKING.json
        per world, Kendall's tau between the local tier's and the ranking tier's orderings of the
        oracle, greedy, the heuristic, random and the placebos; exit 1 if any is below 0.8

Every row's score is the leaderboard's (mam_bench.benchmark.ceiling_scores).
"""

from __future__ import annotations

import argparse
import math
import sys

from mam_bench.benchmark.ceiling_scores import (
    AGREEMENT,
    ROWS,
    aggregate_of,
    agreement,
    entries,
    per_seed,
    read_ceiling,
    scored_scenarios,
)
from mam_bench.benchmark.headroom import seeds_for
from mam_bench.benchmark.leaderboard_v3 import SEPARATE
from mam_bench.errors import ConfigError


def _num(x: float) -> str:
    return "NA" if math.isnan(x) else f"{x:.2f}"


def check_entry(path: str) -> int:
    data = read_ceiling(path)
    print(
        f"{data['benchmark']} tier {data['tier']}, seeds {data['seeds'][0]}-{data['seeds'][-1]} ({len(data['seeds'])})"
    )
    print(f"{'scenario':30} {'headroom [95%]':>24} {'placebo':>7} " + " ".join(f"{r:>9}" for r in ROWS) + "  enters")
    failed = 0
    for e in entries(data):
        head = f"{e.headroom.value:.4g} [{e.headroom.low:.3g}, {e.headroom.high:.3g}]"
        cells = " ".join(f"{_num(e.shares[r]):>9}" for r in ROWS)
        print(f"{e.scenario:30} {head:>24} {e.placebo:>7} {cells}  {'yes' if e.enters else 'no: ' + e.why_not}")
        failed += not e.enters
    print(f"{failed} of {len(data['scenarios'])} scenarios fail an entry condition")
    needed = {row: seeds_for(per_seed(data, row), SEPARATE) for row in ("heuristic", "greedy", "random")}
    told = ", ".join(f"{row} {n if n is not None else 'NA'}" for row, n in needed.items())
    print(f"seeds that separate two rows {SEPARATE} apart with this spread: {told}")
    return 1 if failed else 0


def check_blocks(paths: list[str]) -> int:
    if len(paths) < 2:
        raise ConfigError("ceilings", "give two or more blocks' ceiling files (held-out blocks are compared)")
    blocks = [read_ceiling(path) for path in paths]  # all refused or all read, before anything prints
    scored_sets, ok = [], True
    for data in blocks:
        scored = scored_scenarios(data)
        scored_sets.append(scored)
        block = f"{data['seeds'][0]}-{data['seeds'][-1]} ({len(data['seeds'])} seeds)"
        print(f"block {block}: {len(scored)} of {len(data['scenarios'])} scenarios scored")
        for row in ("heuristic", "greedy", "random"):
            est = aggregate_of(data, row)
            inside = est.low > 0 and est.high < 1
            where = "strictly inside (0, 1)" if inside else "not strictly inside (0, 1)"
            print(f"  {row:10} {_num(est.value):>6} [{_num(est.low)}, {_num(est.high)}]  {where}")
            ok &= inside or row != "heuristic"
    same = all(s == scored_sets[0] for s in scored_sets)
    if not same:
        print("the blocks score different scenarios:", *(sorted(set(scored_sets[0]) ^ set(s)) for s in scored_sets[1:]))
    return 0 if same and ok else 1


def check_agreement(local: str, ranking: str) -> int:
    taus = agreement(read_ceiling(local, "local"), read_ceiling(ranking, "ranking"))
    print(f"{'world':26} {'tau':>6} {'rows':>5}")
    low = 0
    for world, (tau, n) in taus.items():
        bad = math.isnan(tau) or tau < AGREEMENT
        low += bad
        print(f"{world:26} {_num(tau):>6} {n:>5}{'  below ' + str(AGREEMENT) if bad else ''}")
    print(f"{low} of {len(taus)} worlds below {AGREEMENT}")
    return 1 if low or not taus else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="check", required=True)
    sub.add_parser("entry").add_argument("ceiling")
    sub.add_parser("blocks").add_argument("ceilings", nargs="+")
    agree = sub.add_parser("agreement")
    agree.add_argument("local")
    agree.add_argument("ranking")
    args = ap.parse_args(argv)
    try:
        if args.check == "entry":
            return check_entry(args.ceiling)
        if args.check == "blocks":
            return check_blocks(args.ceilings)
        return check_agreement(args.local, args.ranking)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
