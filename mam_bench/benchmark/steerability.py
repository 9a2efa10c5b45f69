"""Steerability profiles: how far each benchmark scenario can be moved at all.

Per scenario the oracle (the named upper bound), the world's heuristic, `random` and the three
placebos (`stay`, `mimic`, `rule`) are played on calibration seeds, which never overlap the
benchmark's held-out seeds. The profile is each controller's mean lift with a t interval over
seeds, and the headroom exactly as the v2 score defines it (mam_bench.benchmark.headroom): the
oracle's lift minus the best placebo's (by mean), paired by seed, with its t interval and exact
signed-rank p. A scenario whose headroom interval excludes 0 can rank steering and may enter v2;
one that does not cannot (its controllers all tie the placebos).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from mam_bench.benchmark.definition import Benchmark, Scenario, parse_seeds, scenario_case
from mam_bench.benchmark.headroom import PLACEBOS, headroom, t_interval
from mam_bench.errors import ConfigError
from mam_bench.experiment.stats import wilcoxon
from mam_bench.experiment.suite import Axes, Suite, has_rule_action, parse_suite

#: seeds set aside for calibration (steerability, tuning a scenario's horizon and dose): below the
#: benchmark's held-out seeds (1000 and up) and above the landscapes' and experiments' (0-39)
CALIBRATION_SEEDS = range(500, 1000)
#: what a profile plays, the upper bound first
CONTROLLERS = ("oracle", "heuristic", "random", "stay", "mimic", "rule")
PROFILE_COLUMNS = (
    "scenario",
    "world",
    "objective",
    "tier",
    "horizon",
    "influence",
    "controller",
    "n",
    "mean",
    "ci_low",
    "ci_high",
)
HEADROOM_COLUMNS = (
    "scenario",
    "world",
    "objective",
    "tier",
    "horizon",
    "influence",
    "n",
    "oracle",
    "best_placebo",
    "placebo_lift",
    "headroom",
    "ci_low",
    "ci_high",
    "wilcoxon_p",
    "moves",
    "reason",
)


def calibration_seeds(text: str) -> list[int]:
    """The seeds asked for, each a calibration seed (never a held-out benchmark seed)."""
    seeds = parse_seeds(text)
    if len(seeds) < 2:
        raise ConfigError("seeds", "give at least 2 seeds (an interval needs a spread)")
    bad = [s for s in seeds if s not in CALIBRATION_SEEDS]
    if bad:
        lo, hi = CALIBRATION_SEEDS.start, CALIBRATION_SEEDS.stop - 1
        raise ConfigError("seeds", f"{bad[0]} is not a calibration seed ({lo}-{hi}; held-out seeds are never used)")
    return seeds


def pick_scenarios(bench: Benchmark, names: list[str]) -> list[Scenario]:
    """The named scenarios (`all`: every one), in the definition's order."""
    known = {s.name: s for s in bench.scenarios}
    if names == ["all"]:
        return list(bench.scenarios)
    for n in names:
        if n not in known:
            raise ConfigError("scenario", f"unknown scenario {n!r} in {bench.name} (known: {', '.join(known)})")
    return [s for s in bench.scenarios if s.name in names]


def profile_suite(
    bench: Benchmark,
    scenarios: list[Scenario],
    tier: str,
    seeds: list[int],
    controllers: tuple[str, ...] = CONTROLLERS,
    options: dict[str, dict[str, Any]] | None = None,
) -> Suite:
    """Every scenario x controller as one suite case at the tier's horizon and dose, no baselines
    (the placebos are cases of their own), so the experiment's runner plays and resumes it."""
    opts = options or {}
    cases = [
        scenario_case(bench, s, bench.tier_for(tier, s), c, opts.get(c, {})).model_dump(
            mode="json", exclude_defaults=True
        )
        for s in scenarios
        for c in controllers
        if c != "mimic" or has_rule_action(s.world)
    ]
    data = {"name": f"{bench.name}-steerability-{tier}", "seeds": seeds, "baselines": [], "cases": cases}
    return parse_suite(data).model_copy(update={"axes": Axes()})


def per_seed_lifts(table: pd.DataFrame) -> dict[tuple[str, str], pd.Series]:
    """(scenario, controller) -> mean valid lift per seed (repeats averaged within their seed)."""
    df = table[table["valid"].astype(bool)] if "valid" in table else table
    out: dict[tuple[str, str], pd.Series] = {}
    for name, g in df.groupby("case", sort=False):
        scenario, _, controller = str(name).rpartition("/")
        out[(scenario, controller)] = g.groupby("seed")["lift"].mean()
    return out


def profiles(
    bench: Benchmark, scenarios: list[Scenario], tier: str, table: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per controller lifts, per scenario headroom) from the suite's tidy table."""
    lifts = per_seed_lifts(table)
    rows, heads = [], []
    for s in scenarios:
        t = bench.tier_for(tier, s)
        setting = {
            "scenario": s.name,
            "world": s.world,
            "objective": s.objective,
            "tier": tier,
            "horizon": t.rounds or s.rounds,
            "influence": t.influence or s.influence or len(s.influence_ids or ()),
        }
        for c in CONTROLLERS:
            v = lifts.get((s.name, c))
            if v is None or v.empty:
                continue
            est = t_interval(v.to_numpy(dtype=float))
            rows.append(
                {**setting, "controller": c, "n": len(v), "mean": est.value, "ci_low": est.low, "ci_high": est.high}
            )
        named = [p for p in PLACEBOS if (s.name, p) in lifts]
        if (s.name, "oracle") not in lifts or not named:
            continue
        both = pd.concat([lifts[(s.name, c)].rename(c) for c in ("oracle", *named)], axis=1).dropna()
        if both.empty:
            continue
        head = headroom(both["oracle"].to_numpy(), {p: both[p].to_numpy() for p in named})
        heads.append(
            {
                **setting,
                "n": len(both),
                "oracle": float(both["oracle"].mean()),
                "best_placebo": head.placebo,
                "placebo_lift": float(head.base.mean()),
                "headroom": head.estimate.value,
                "ci_low": head.estimate.low,
                "ci_high": head.estimate.high,
                "wilcoxon_p": wilcoxon(head.signal())[0],
                "moves": head.scoreable,
                "reason": head.reason,
            }
        )
    return pd.DataFrame(rows, columns=PROFILE_COLUMNS), pd.DataFrame(heads, columns=HEADROOM_COLUMNS)


def _num(v: float, fmt: str = "+.3g") -> str:
    return "NA" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, fmt)


def markdown(lifts: pd.DataFrame, heads: pd.DataFrame, command: str) -> str:
    """The headroom table (one row a scenario) and each controller's mean lift [95% t CI]."""
    lines = [f"`{command}`", ""]
    lines += [
        "| scenario | tier | horizon | influence | n | oracle | best placebo | headroom [95% t CI] | exact p | moves |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in heads.itertuples():
        ci = f"{_num(r.headroom)} [{_num(r.ci_low)}, {_num(r.ci_high)}]"
        lines.append(
            f"| {r.scenario} | {r.tier} | {r.horizon} | {r.influence} | {r.n} | {_num(r.oracle)} | "
            f"{r.best_placebo} {_num(r.placebo_lift)} | {ci} | {_num(r.wilcoxon_p, '.2g')} | "
            f"{'yes' if r.moves else 'no'} |"
        )
    present = [c for c in CONTROLLERS if c in set(lifts["controller"])]
    lines += ["", "Mean lift [95% t CI] per controller:", ""]
    lines += ["| scenario | " + " | ".join(present) + " |", "|---|" + "---|" * len(present)]
    for name, g in lifts.groupby("scenario", sort=False):
        cells = {r.controller: f"{_num(r.mean)} [{_num(r.ci_low)}, {_num(r.ci_high)}]" for r in g.itertuples()}
        lines.append(f"| {name} | " + " | ".join(cells.get(c, "") for c in present) + " |")
    return "\n".join(lines) + "\n"
