"""The bullwhip effect in the supply-chain world, all firms on Sterman's rule (the reference run).

Prints, per demand pattern, the standard deviation over the weeks of each tier's mean weekly order
(mean over seeds, with the range over seeds), its variance over the customer demand's (the mean
demand per retailer), and the tier's peak mean order; then the same step with the whole supply
line counted (beta = 1). The figures of
docs/results/supply-chain.md:

    .venv/bin/python scripts/supply_chain_bullwhip.py --seeds 0-19
"""

from __future__ import annotations

import argparse
import statistics

from mam_bench.models.supply_chain.model import TIERS
from mam_bench.models.supply_chain.world import SupplyChainWorld
from mam_bench.world import play_round


def play(seed: int, **params: str) -> tuple[dict[str, float], list[float]]:
    """The reference's final metrics and each tier's largest weekly order (mean over its firms)."""
    world = SupplyChainWorld(seed=seed, **params)
    peaks = [0.0] * len(TIERS)
    for _ in range(world.rounds):
        play_round(world, {})
        for t, tier in enumerate(world.model.tiers):
            peaks[t] = max(peaks[t], statistics.fmean(f.order for f in tier))
    return world.metrics(), peaks


def table(title: str, seeds: list[int], **params: str) -> None:
    runs = [play(s, **params) for s in seeds]
    demand = statistics.fmean(m["demand_std"] for m, _ in runs)
    print(f"\n{title} ({len(seeds)} seeds, params {params or 'default'}); customer demand std {demand:.3g}")
    print("| tier | order std | range over seeds | variance / demand variance | peak order |")
    print("|---|---|---|---|---|")
    for t, name in enumerate(TIERS):
        stds = [m[f"flow_std_{name}"] for m, _ in runs]
        ratio = statistics.fmean((m[f"flow_std_{name}"] / m["demand_std"]) ** 2 for m, _ in runs)
        peak = statistics.fmean(p[t] for _, p in runs)
        print(f"| {name} | {statistics.fmean(stds):.3g} | {min(stds):.3g}-{max(stds):.3g} | {ratio:.3g} | {peak:.3g} |")
    grows = sum(all(m[f"flow_std_{a}"] < m[f"flow_std_{b}"] for a, b in zip(TIERS, TIERS[1:])) for m, _ in runs)
    print(f"order std strictly grows upstream on {grows} of {len(seeds)} seeds")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-19", help="seeds, e.g. 0-19")
    ap.add_argument("--firms-per-tier", default="4")
    args = ap.parse_args()
    lo, _, hi = args.seeds.partition("-")
    seeds = list(range(int(lo), int(hi or lo) + 1))
    n = {"firms_per_tier": args.firms_per_tier}
    table("The game's step (4, then 8 from week 5)", seeds, **n)
    table("Noisy demand (4 + N(0, 2), rounded, at least 0)", seeds, demand="noise", **n)
    table(
        "The step, the whole supply line counted (beta=1, S'=25: the same desired stock)",
        seeds,
        beta="1.0",
        s_prime="25",
        **n,
    )


if __name__ == "__main__":
    main()
