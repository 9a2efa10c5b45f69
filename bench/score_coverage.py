"""How often the leaderboard's 95% intervals cover the true score, at the seed counts tiers use.

Usage: python bench/score_coverage.py [--trials 4000] [--seeds 2,3,5,10,20]

Simulated scenarios with a known true score: per seed, the lifts of the oracle, a controller and the
placebos (stay, mimic, rule = 0), drawn correlated (one board per seed) from a normal or a skewed
(Poisson counts) law. Printed per law and seed count:
- `v2 scenario`: Fieller's interval of mam-bench-v2's score (mam_bench.benchmark.headroom.share),
  counted over the trials where the scenario is scoreable (the share of those is printed too);
- `v2 aggregate`: the aggregate's t-interval over 6 worlds x 2 scenarios (headroom.aggregate), over
  the worlds with a scoreable scenario as the board does (the trials with any are counted in brackets);
- `v1-style bootstrap`: the percentile bootstrap of the same per-scenario mean ratio that v1 prints
  (mam_bench.benchmark.score.bootstrap_mean on per-seed shares), for comparison.
The true score uses the true best placebo; the estimate picks it by sample means, as the board does.

With `--ceiling FILE` (a v3 ceiling.json, which holds every source's lift per scenario and seed) it
resamples those seeds instead: the population is the file's seeds (its empirical law), the true
score of each row (heuristic, greedy, random) is its v3 score on all of them, and each trial draws
`n` seeds with replacement and asks whether the v3 interval covers it, per world and for the
aggregate, at each seed count of `--seeds`:

    python bench/score_coverage.py --ceiling data/benchmark/v3-ceiling/standard/ceiling.json --seeds 10,20,30
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

from mam_bench.benchmark.ceiling_scores import read_ceiling, world_scores
from mam_bench.benchmark.headroom import aggregate, contributions, headroom, share
from mam_bench.benchmark.score import bootstrap_mean
from mam_bench.errors import ConfigError

#: (oracle, controller, stay, mimic) mean lifts of one scenario; rule is 0; the true best placebo is stay
MEANS = (4.0, 1.5, 0.5, -0.5)


def draw(rng: np.random.Generator, n: int, law: str, shift: float) -> dict[str, np.ndarray]:
    """One scenario's lifts on n seeds: a shared per-seed board effect plus each row's own noise."""
    board = rng.normal(0.0, 1.0, n)
    out = {}
    for name, mean in zip(("oracle", "controller", "stay", "mimic"), MEANS):
        mu = mean + shift
        if law == "normal":
            out[name] = mu + board + rng.normal(0.0, 1.5, n)
        else:  # counts: a skewed law around the same means
            out[name] = rng.poisson(np.exp(0.3 * board) * 3.0, n) - 3.0 + mu + rng.exponential(1.0, n) - 1.0
    out["rule"] = np.zeros(n)
    return out


def truth(shift: float) -> float:
    oracle, controller, stay, _ = (m + shift for m in MEANS)
    return (controller - stay) / (oracle - stay)


def one_scenario(rng: np.random.Generator, n: int, law: str, shift: float) -> tuple[bool, bool, bool, tuple]:
    lifts = draw(rng, n, law, shift)
    head = headroom(lifts["oracle"], {p: lifts[p] for p in ("rule", "stay", "mimic")})
    ratio = (lifts["controller"] - head.base) / max(head.estimate.value, 1e-12)
    _, blo, bhi = bootstrap_mean(list(ratio), seed=int(rng.integers(1 << 30)), resamples=2000)
    boot = not math.isnan(blo) and blo <= truth(shift) <= bhi
    if not head.scoreable:
        return False, False, boot, ()
    est = share(lifts["controller"], head)
    return (
        True,
        est.low <= truth(shift) <= est.high,
        boot,
        (est.value, contributions(lifts["controller"], head, est.value)),
    )


#: the rows whose coverage a ceiling's resampling prints
ROWS = ("heuristic", "greedy", "random")


def resample(path: str, ns: list[int], trials: int) -> None:
    """Coverage of the v3 intervals by resampling a ceiling file's seeds."""
    data = read_ceiling(path)
    pool = [str(s) for s in data["seeds"]]
    rng = np.random.default_rng(20261207)
    print(f"population: {len(pool)} seeds of {data['benchmark']} tier {data['tier']}; {trials} trials per cell")
    print(f"{'row':10} {'seeds':>5} {'where':24} {'coverage':>9} {'trials':>7}")
    for row in ROWS:
        whole = world_scores(data, pool, row)
        if not whole:
            print(f"{row:10} {'-':>5} {'no scored scenario':24}")
            continue
        truths = {w: float(np.mean([v for v, _ in parts])) for w, parts in whole.items()}
        truths["aggregate"] = float(np.mean(list(truths.values())))
        for n in ns:
            hits: dict[str, int] = {}
            counted: dict[str, int] = {}
            for _ in range(trials):
                drawn = list(rng.choice(pool, size=n, replace=True))
                worlds = world_scores(data, drawn, row)
                if set(worlds) != set(whole):
                    continue  # a draw that loses a world's headroom is not the board's set
                for w in [*worlds, "aggregate"]:
                    est = aggregate(worlds if w == "aggregate" else {w: worlds[w]})
                    if math.isnan(est.low):
                        continue
                    counted[w] = counted.get(w, 0) + 1
                    hits[w] = hits.get(w, 0) + int(est.low <= truths[w] <= est.high)
            for w in [*whole, "aggregate"]:
                cover = f"{hits.get(w, 0) / counted[w]:.3f}" if counted.get(w) else "NA"
                print(f"{row:10} {n:>5} {w:24} {cover:>9} {counted.get(w, 0):>7}")


def seed_counts(text: str) -> list[int]:
    """`--seeds 10,20,30`: the seed counts to check, each at least 2 (an interval needs two)."""
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of whole numbers: {text!r}") from None
    if min(counts) < 2:
        raise argparse.ArgumentTypeError(f"every seed count must be at least 2 (got {min(counts)})")
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=4000)
    ap.add_argument("--seeds", type=seed_counts, default="2,3,5,10,20")
    ap.add_argument("--ceiling", default=None, help="a v3 ceiling.json: resample its seeds instead of simulating")
    args = ap.parse_args()
    if args.ceiling:
        try:
            resample(args.ceiling, args.seeds, args.trials)
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(2)
        return
    rng = np.random.default_rng(20261202)
    shifts = [0.0, 0.3, -0.2, 0.6, 0.1, -0.4]  # six worlds, two scenarios each
    print(
        f"{'law':7} {'seeds':>5} {'v2 scenario':>12} {'scoreable':>10} {'v2 aggregate':>13} {'v1-style bootstrap':>19}"
    )
    for law in ("normal", "counts"):
        for n in args.seeds:
            hits = scoreable = boot = agg_hits = agg_trials = 0
            for _ in range(args.trials):
                ok, hit, b, _ = one_scenario(rng, n, law, 0.0)
                scoreable += ok
                hits += hit
                boot += b
            for _ in range(args.trials // 4):
                worlds = {}
                for w, shift in enumerate(shifts):
                    parts = [one_scenario(rng, n, law, shift)[3] for _ in range(2)]
                    worlds[w] = [p for p in parts if p]
                scored = [w for w, parts in worlds.items() if parts]
                if scored:  # the board's aggregate: the worlds with a scoreable scenario
                    est = aggregate({str(w): worlds[w] for w in scored})
                    agg_trials += 1
                    agg_hits += est.low <= float(np.mean([truth(shifts[w]) for w in scored])) <= est.high
            cover = f"{hits / scoreable:.3f}" if scoreable else "NA"
            agg = f"{agg_hits / agg_trials:.3f} ({agg_trials})" if agg_trials else "NA"
            print(f"{law:7} {n:>5} {cover:>12} {scoreable / args.trials:>10.3f} {agg:>13} {boot / args.trials:>19.3f}")


if __name__ == "__main__":
    main()
