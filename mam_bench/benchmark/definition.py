"""The benchmark file (suites/benchmark.yaml): fixed scenarios, two tiers, and how one controller's
benchmark becomes an ordinary experiment suite (the controller, the reference strategy and the
placebos, on the tier's seeds), so that running, resuming and the tidy table are the experiment's own.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from mam_bench.errors import ConfigError, config_error_from
from mam_bench.experiment.suite import MAX_ROUNDS, Axes, Case, Suite, checked_model, parse_suite, read_yaml
from mam_bench.limits import check_seed_count, seed_range, whole_number
from mam_bench.registry import CONTROLLERS

#: the placebos each score version plays on every scenario: their best is the score's 0 (v2 adds
#: `rule`, whose lift is 0 by construction, so that doing nothing never scores above 0)
PLACEBOS = {"v1": ("stay", "mimic"), "v2": ("stay", "mimic", "rule"), "v3": ("stay", "mimic", "rule")}
#: what a v3 ceiling plays beside the reference and the placebos, unless the file names others
CEILING_FROM = ("greedy", "heuristic", "random")
#: where the benchmark file is looked for when --definition is not given (cwd, then the source tree)
DEFAULT_FILE = Path("suites") / "benchmark.yaml"


class Dose(BaseModel):
    """A scenario's own horizon and influence count on one tier, where the tier's are not enough
    (the smallest at which the scenario can be steered at all, from its steerability profile)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: int | None = Field(None, ge=1)
    influence: int | None = Field(None, ge=1)


class Scenario(BaseModel):
    """One world, objective and setting; its own horizon and influence set are the full tier's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    world: str
    objective: str
    params: dict[str, Any] = Field(default_factory=dict)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    influence: int | None = Field(None, ge=1)
    influence_ids: tuple[int, ...] | None = None
    #: the strategy that scores 1: the world's heuristic, or a named upper bound (a controller)
    reference: str = "heuristic"
    reference_options: dict[str, Any] = Field(default_factory=dict)
    #: tier name -> this scenario's own horizon and dose there, instead of the tier's
    doses: dict[str, Dose] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", v):  # it becomes a part of case names (`NAME/controller`)
            raise ValueError(f"{v!r}: a scenario name is 1 to 64 letters, digits, '_', '.' or '-'")
        return v

    @field_validator("reference")
    @classmethod
    def _known_controller(cls, v: str) -> str:
        if v not in CONTROLLERS:
            raise ValueError(f"unknown controller {v!r} (known: {', '.join(sorted(CONTROLLERS))})")
        return v

    @model_validator(mode="after")
    def _one_influence(self) -> Scenario:
        if (self.influence is None) == (self.influence_ids is None):
            raise ValueError("give exactly one of influence (a count) or influence_ids")
        return self


class Tier(BaseModel):
    """How much of each scenario is played: seeds, and optionally a shorter horizon, fewer
    influence agents, and LLM options (one call per decision) that keep a slow model affordable."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seeds: str | tuple[int, ...]
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS)
    influence: int | None = Field(None, ge=1)
    llm_options: dict[str, Any] = Field(default_factory=dict)
    #: what the tier is for (v3): `smoke` checks the pipeline and prints no ranking claim,
    #: `ranking` is the tier a ranking is read from, `local` what a local model finishes
    purpose: Literal["smoke", "ranking", "local"] | None = None


class Benchmark(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str = ""
    #: how the leaderboard scores it: v1 (clipped, the heuristic is 1) or v2 (the reference, an
    #: oracle, is 1 and nothing is clipped; see mam_bench.benchmark.headroom)
    score: Literal["v1", "v2", "v3"] = "v1"
    tiers: dict[str, Tier]
    scenarios: tuple[Scenario, ...] = Field(min_length=1)
    #: v3: the folder of the shipped ceiling (one subfolder per tier), relative to the repository
    ceiling: str | None = None
    #: v3: the controllers whose plays the ceiling takes the best of, beside the reference
    ceiling_from: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _v3_has_a_ceiling(self) -> Benchmark:
        if self.score == "v3":
            if not self.ceiling:
                raise ValueError("a v3 benchmark names its shipped ceiling's folder (ceiling: data/benchmark/...)")
            missing = [n for n, t in self.tiers.items() if t.purpose is None]
            if missing:
                raise ValueError(f"tier {missing[0]!r}: a v3 tier says its purpose (smoke, ranking or local)")
        elif self.ceiling is not None or self.ceiling_from is not None:
            raise ValueError("only a v3 benchmark (score: v3) ships a ceiling")
        for name in self.ceiling_from or ():
            if name not in CONTROLLERS:
                raise ValueError(f"ceiling_from: unknown controller {name!r} (known: {', '.join(sorted(CONTROLLERS))})")
        return self

    def ceiling_sources(self) -> tuple[str, ...]:
        return self.ceiling_from if self.ceiling_from is not None else CEILING_FROM

    @field_validator("scenarios")
    @classmethod
    def _unique(cls, v: tuple[Scenario, ...]) -> tuple[Scenario, ...]:
        seen: set[str] = set()
        for s in v:
            if s.name in seen:
                raise ValueError(f"scenario {s.name!r} is named twice")
            seen.add(s.name)
        return v

    def tier(self, name: str) -> Tier:
        if name not in self.tiers:
            raise ConfigError("tier", f"unknown tier {name!r} (known: {', '.join(self.tiers)})")
        return self.tiers[name]

    def tier_for(self, name: str, scenario: Scenario) -> Tier:
        """The tier as one scenario plays it: its own dose on that tier, where it names one."""
        tier, dose = self.tier(name), scenario.doses.get(name)
        if dose is None:
            return tier
        return tier.model_copy(update=dose.model_dump(exclude_none=True))

    def worlds(self) -> list[str]:
        return list(dict.fromkeys(s.world for s in self.scenarios))

    def placebos(self) -> tuple[str, ...]:
        return PLACEBOS[self.score]


def find_definition(path: str | None) -> Path:
    """The benchmark file: the one given, else suites/benchmark.yaml here or in the source tree."""
    if path:
        p = Path(path)
        if not p.is_file():
            raise ConfigError("definition", f"no such file: {p}")
        return p
    for p in (DEFAULT_FILE, Path(__file__).resolve().parents[2] / DEFAULT_FILE):
        if p.is_file():
            return p
    raise ConfigError("definition", f"no {DEFAULT_FILE} here or beside the package; give --definition FILE")


def load_benchmark(path: str | Path) -> Benchmark:
    p = Path(path)
    try:
        data = read_yaml(p.read_text(encoding="utf-8"))  # a key given twice is refused, as in a suite
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else str(exc).splitlines()[0]
        raise ConfigError("definition", f"cannot read {p}: {reason}") from None
    except ConfigError as exc:
        raise ConfigError(f"definition.{exc.field}", exc.message) from None
    if not isinstance(data, dict):
        raise ConfigError("definition", f"{p}: expected a mapping with name, tiers and scenarios")
    try:
        bench = Benchmark(**data)
    except ValidationError as exc:
        raise config_error_from(exc, "definition.") from None
    for name, tier in bench.tiers.items():
        if isinstance(tier.seeds, str):
            try:
                parse_seeds(tier.seeds)
            except ConfigError as exc:
                raise ConfigError(f"definition.tiers.{name}.seeds", exc.message) from None
    return bench


def parse_seeds(text: str | tuple[int, ...] | list[int]) -> list[int]:
    """ "A-B", "A,B,C", a single "N", or a list: the seeds to play."""
    if isinstance(text, (list, tuple)):
        out = [int(s) for s in text]
    else:
        out = []
        for part in str(text).split(","):
            one, bounds = whole_number(part), seed_range(part)
            if one is None and (bounds is None or bounds[1] < bounds[0]):
                raise ConfigError("seeds", f"expected a range like 0-9 or a list like 1,4,7, got {text!r}")
            lo, hi = bounds or (one, one)
            check_seed_count(hi - lo + 1 + len(out))
            out.extend(range(lo, hi + 1))
    check_seed_count(len(out))
    if len(set(out)) != len(out):
        raise ConfigError("seeds", f"a seed is named twice in {text!r}")
    return out


class Entry(BaseModel):
    """What the benchmark plays in one folder: the controller (and its models) on a tier."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    controller: str
    models: tuple[str, ...] = ()
    tier: str = "quick"
    seeds: tuple[int, ...]
    #: options for the controller under test (LLM flags, replay sources are set per pair)
    options: dict[str, Any] = Field(default_factory=dict)
    #: for a replay: the controller whose recorded decisions are replayed
    replay_of: str = ""

    def label(self) -> str:
        """The leaderboard's controller name: a replay is named for what it replays."""
        return f"{self.replay_of} (replay)" if self.controller == "replay" and self.replay_of else self.controller

    @field_validator("models")
    @classmethod
    def _models(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        try:
            return tuple(checked_model(m) for m in v)
        except ValueError as exc:
            raise ValueError(str(exc)) from None


def scenario_case(bench: Benchmark, s: Scenario, tier: Tier, controller: str, options: dict[str, Any]) -> Case:
    """The scenario as a suite case driven by `controller` at the tier's horizon and dose."""
    influence = {"influence": tier.influence, "influence_ids": None} if tier.influence else {}
    if not influence:
        influence = {"influence": s.influence, "influence_ids": s.influence_ids}
    opts = dict(options)
    if controller == "llm":
        opts = {**tier.llm_options, **opts}
    return Case(
        name=f"{s.name}/{controller}",
        world=s.world,
        params=s.params,
        objective=s.objective,
        controller=controller,
        rounds=tier.rounds or s.rounds,
        controller_options=opts,
        **influence,
    )


def reference_case(bench: Benchmark, s: Scenario, tier: Tier) -> Case:
    return scenario_case(bench, s, tier, s.reference, s.reference_options).model_copy(
        update={"name": f"{s.name}/reference"}
    )


def build_suite(bench: Benchmark, entry: Entry, replays: dict[tuple[str, str, int], str] | None = None) -> Suite:
    """The entry as a suite: per scenario the controller's case (once per model for an LLM; once
    per recorded pair for a replay), the reference strategy's case unless it is the same, and the
    placebos as the suite's baselines (each content once: the suite dedups them)."""
    cases: list[Case] = []
    keys: set[str] = set()

    def add(case: Case) -> None:
        if case.content_key() not in keys:
            keys.add(case.content_key())
            cases.append(case)

    for s in bench.scenarios:
        tier = bench.tier_for(entry.tier, s)
        if entry.controller == "replay":
            for (name, model, seed), source in sorted((replays or {}).items()):
                if name == s.name:
                    case = scenario_case(bench, s, tier, "replay", {"replay": source})
                    tag = f"{model}@{seed}" if model else f"@{seed}"
                    add(case.model_copy(update={"name": f"{s.name}/replay/{tag}", "only_seeds": (seed,)}))
        elif entry.controller == "llm":
            for m in entry.models:
                case = scenario_case(bench, s, tier, "llm", entry.options)
                add(case.model_copy(update={"name": f"{s.name}/llm/{m}", "model": m}))
        else:
            add(scenario_case(bench, s, tier, entry.controller, entry.options))
        if bench.score != "v3":  # v3 scores against its shipped ceiling: only the entry plays
            add(reference_case(bench, s, tier))
    data = {
        "name": f"{bench.name}-{entry.tier}",
        "seeds": list(entry.seeds),
        "baselines": list(bench.placebos()) if bench.score != "v3" else [],
        "cases": [c.model_dump(mode="json", exclude_defaults=True) for c in cases],
    }
    suite = parse_suite(data)
    return suite.model_copy(update={"axes": Axes()})


def roles(bench: Benchmark, entry: Entry, suite: Suite) -> dict[str, list[dict[str, Any]]]:
    """case_key (the table's 16 characters) -> what it is for the score: scenario, role
    (entry | reference | a placebo), controller and model. One key may hold two roles (the
    heuristic under test is its own reference; `stay` under test is its own baseline)."""
    by_scenario = {s.name: s for s in bench.scenarios}
    out: dict[str, list[dict[str, Any]]] = {}

    def put(case: Case, scenario: str, role: str, controller: str, model: str) -> None:
        item = {"scenario": scenario, "role": role, "controller": controller, "model": model}
        bucket = out.setdefault(case.content_key()[:16], [])
        if item not in bucket:
            bucket.append(item)

    for case in suite.cases:
        name, _, rest = (case.name or "").partition("/")
        s = by_scenario[name]
        reference = reference_case(bench, s, bench.tier_for(entry.tier, s))
        if case.content_key() == reference.content_key():
            put(case, name, "reference", s.reference, "")
        if rest != "reference":
            model = case.model or ""
            if entry.controller == "replay":
                model = rest.removeprefix("replay/").rpartition("@")[0]
            put(case, name, "entry", entry.label(), model)
        if case.controller_name in bench.placebos():
            put(case, name, case.controller_name, case.controller_name, "")
        for b in suite.baseline_controllers(case):
            put(case.baseline(b), name, b, b, "")
    return out


def definition_hash(bench: Benchmark) -> str:
    """Names the benchmark's content: two folders compare only if they played the same one. A v1
    file hashes without its `score`, and a scenario without doses of its own without `doses`, as
    they did before v2 existed (v1 folders still replay)."""
    body = bench.model_dump(mode="json", exclude={"score"} if bench.score == "v1" else None)
    for s in body["scenarios"]:
        if not s["doses"]:
            del s["doses"]
    for key in ("ceiling", "ceiling_from"):  # v3's; absent from v1 and v2 hashes, as before it
        if body[key] is None:
            del body[key]
    for tier in body["tiers"].values():
        if tier["purpose"] is None:
            del tier["purpose"]
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:12]
