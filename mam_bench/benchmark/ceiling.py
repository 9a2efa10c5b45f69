"""A v3 benchmark's shipped ceiling: per scenario and seed, the best lift any plan we know reached,
the plan that reached it (the decisions of each round, replayable), and the placebos' lifts.

`mam-bench ceiling` plays, per scenario and seed, the scenario's reference (the oracle with the
definition's planner), the definition's `ceiling_from` controllers (greedy, the heuristic,
`random`) and the placebos, as one experiment, and keeps the best. A user's `mam-bench benchmark`
then plays only its own controller and is scored against this file, so a controller that finds a
better plan shows as "above the ceiling" and its plan raises the ceiling of the next version.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mam_bench.benchmark.definition import Benchmark, definition_hash, reference_case, scenario_case
from mam_bench.errors import ConfigError
from mam_bench.experiment.suite import Suite, parse_suite
from mam_bench.protocol import Decision

CEILING_FILE = "ceiling.json"
#: the repository's root, where a definition's `ceiling:` folder is looked for after the cwd
ROOT = Path(__file__).resolve().parents[2]


def ceiling_suite(bench: Benchmark, tier_name: str, seeds: list[int]) -> tuple[Suite, dict[str, tuple[str, str]]]:
    """The ceiling's plays as one suite, and case_key (16 characters) -> (scenario, controller)."""
    cases, keys = [], {}
    for s in bench.scenarios:
        tier = bench.tier_for(tier_name, s)
        cases.append(reference_case(bench, s, tier))
        for name in bench.ceiling_sources():
            if name != s.reference:
                cases.append(scenario_case(bench, s, tier, name, {}))
    data = {
        "name": f"{bench.name}-{tier_name}-ceiling",
        "seeds": list(seeds),
        "baselines": list(bench.placebos()),
        "cases": [c.model_dump(mode="json", exclude_defaults=True) for c in cases],
    }
    suite = parse_suite(data)
    for case in suite.cases:
        scenario, _, role = (case.name or "").partition("/")
        keys[case.content_key()[:16]] = (scenario, case.controller_name if role != "reference" else "oracle")
        for b in suite.baseline_controllers(case):
            keys.setdefault(case.baseline(b).content_key()[:16], (scenario, b))
    return suite, keys


def plan_of(pair_dir: Path) -> list[dict[str, dict[str, Any]]]:
    """The decisions of each round of a pair, by actor: {"defer": bool, "action": ...}."""
    rounds: list[dict[str, dict[str, Any]]] = []
    path = pair_dir / "decisions.jsonl"
    if not path.is_file():
        return rounds
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        while len(rounds) <= int(row["round"]):
            rounds.append({})
        deferred = bool(row.get("deferred")) and row.get("decision") is None
        rounds[int(row["round"])][str(row["actor_id"])] = {"defer": deferred, "action": row.get("decision")}
    return rounds


def decisions_of(plan: list[dict[str, dict[str, Any]]]) -> list[dict[int, Decision]]:
    """A stored plan as the joint actions the oracle's `Preset` plays, round by round."""
    out = []
    for joint in plan:
        out.append(
            {
                int(aid): Decision.follow_rule() if d["defer"] else Decision(action=d["action"])
                for aid, d in joint.items()
            }
        )
    return out


def summarise(bench: Benchmark, tier: str, seeds: list[int], folder: Path, keys: dict[str, tuple[str, str]]) -> dict:
    """The ceiling file's content from the experiment in `folder`."""
    from mam_bench.experiment.table import read_table

    lifts: dict[str, dict[int, dict[str, tuple[float, str]]]] = {}
    for r in read_table(folder / "table.csv").to_dict("records"):
        if r["case_key"] not in keys or not r["valid"]:
            continue
        scenario, controller = keys[r["case_key"]]
        lifts.setdefault(scenario, {}).setdefault(int(r["seed"]), {})[controller] = (
            float(r["lift"]),
            str(r["pair_id"]),
        )
    placebos = bench.placebos()
    out: dict[str, Any] = {}
    for s in bench.scenarios:
        by_seed: dict[str, Any] = {}
        for seed in seeds:
            played = lifts.get(s.name, {}).get(seed, {})
            if not played:
                raise ConfigError("out", f"{folder}: {s.name} has no valid pair on seed {seed}")
            # the best lift; ties go to the placebos, then the order played (a plan no better than
            # doing nothing is not a ceiling's)
            order = ["rule", *placebos, "oracle", *bench.ceiling_sources()]
            best = max(played, key=lambda c: (played[c][0], -order.index(c) if c in order else -len(order)))
            by_seed[str(seed)] = {
                "ceiling": played[best][0],
                "by": best,
                "lifts": {c: v for c, (v, _) in sorted(played.items())},
                "placebos": {p: played[p][0] for p in placebos if p in played},
                "plan": plan_of(folder / "pairs" / played[best][1]),
            }
        out[s.name] = {"world": s.world, "objective": s.objective, "seeds": by_seed}
    return {
        "benchmark": bench.name,
        "definition_hash": definition_hash(bench),
        "tier": tier,
        "seeds": list(seeds),
        "sources": ["oracle", *bench.ceiling_sources(), *placebos],
        "scenarios": out,
    }


def ceiling_path(bench: Benchmark, tier: str) -> Path:
    """Where the definition's shipped ceiling of `tier` is: under the cwd, else the repository."""
    rel = Path(bench.ceiling or "") / tier / CEILING_FILE
    for p in (rel, ROOT / rel):
        if p.is_file():
            return p
    return rel


def load_ceiling(bench: Benchmark, tier: str, seeds: list[int]) -> dict[str, Any]:
    """The shipped ceiling of this definition and tier, holding every seed asked for."""
    path = ceiling_path(bench, tier)
    if not path.is_file():
        raise ConfigError(
            "tier",
            f"{bench.name} ships no ceiling for tier {tier!r} ({path}); compute it with "
            f"mam-bench ceiling --definition FILE --tier {tier} --out {Path(bench.ceiling or '') / tier}",
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        raise ConfigError("tier", f"{path} is damaged (not JSON)") from None
    if data.get("definition_hash") != definition_hash(bench):
        raise ConfigError("definition", f"{path} is the ceiling of another definition ({data.get('definition_hash')})")
    missing = [s for s in seeds if s not in data.get("seeds", [])]
    if missing:
        raise ConfigError(
            "seeds", f"the shipped ceiling of tier {tier!r} has no seed {missing[0]} (it has {data['seeds']})"
        )
    return data
