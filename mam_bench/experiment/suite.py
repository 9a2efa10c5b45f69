"""The YAML suite: cases x seeds x repeats, validated whole before a single pair runs.

A typo anywhere fails with the path to the bad field (`cases[1].params.threshld: unknown key`),
and each pair is keyed by the content of its case, seed and repeat, not by its position, so a
resumed or reordered suite finds its finished pairs again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from mam_bench.errors import ConfigError
from mam_bench.limits import seed_range
from mam_bench.outcome import MAX_POLICY_ERROR_SHARE
from mam_bench.registry import CONTROLLERS, get_world, model_providers
from mam_bench.runner import PairSpec, prepared
from mam_bench.streams import stream

#: the most treatment rounds a case or axis may ask for (as `mam-bench run`)
MAX_ROUNDS = 100_000
#: a case that names its controller under both names
BOTH_KEYS = 'give "controller:" only ("policy:" is its old name), not both'


def checked_model(v: str) -> str:
    """A "provider:model" text whose provider the registered chat-model builder knows."""
    provider, sep, name = v.partition(":")
    if not sep or not name:
        raise ValueError(f"expected provider:model, got {v!r}")
    known = model_providers()
    if known is not None and provider not in known:
        raise ValueError(f"unknown model provider {provider!r} (known: {', '.join(sorted(known))})")
    return v


class Case(BaseModel):
    """One setting: a world, its parameters, an objective and a controller (or a model)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = None
    world: str
    params: dict[str, Any] = Field(default_factory=dict)
    objective: str | None = None
    #: the controller as written (None: `llm` when a model is given, else `rule`; see `controller_name`)
    controller: str | None = None
    model: str | None = None
    influence: int | None = Field(None, ge=0)
    influence_ids: tuple[int, ...] | None = None
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS)
    controller_options: dict[str, Any] = Field(default_factory=dict)
    #: K > 0: K random influence sets per seed, drawn from the addressed stream (seed, "placement", k)
    placement_draws: int | None = Field(None, ge=1)
    #: after the horizon, hand the influence agents back to the rule and run both worlds to rest
    settle: bool = False
    #: play this case at these of the suite's seeds only (a replay of one recorded seed); None: every seed
    only_seeds: tuple[int, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_name(cls, data: Any) -> Any:
        """`policy` is the controller's old name: a suite.json recorded before the rename reads."""
        if isinstance(data, dict) and "policy" in data:
            if "controller" in data:
                raise ValueError(BOTH_KEYS)
            data = {("controller" if k == "policy" else k): v for k, v in data.items()}
        return data

    @field_validator("model")
    @classmethod
    def _provider(cls, v: str | None) -> str | None:
        return v if v is None else checked_model(v)

    @property
    def controller_name(self) -> str:
        """The controller that plays: the one written, else `llm` for a model, else `rule`."""
        return self.controller or ("llm" if self.model else "rule")

    @field_validator("controller")
    @classmethod
    def _controller_known(cls, v: str | None) -> str | None:
        if v is not None and v not in CONTROLLERS:
            raise ValueError(f"unknown controller {v!r} (known: {', '.join(sorted(CONTROLLERS))})")
        return v

    @model_validator(mode="after")
    def _model_needs_llm(self) -> Case:
        if self.model and self.controller_name != "llm":
            raise ValueError(f"a model needs controller llm, not {self.controller!r}")
        if self.placement_draws is not None and self.influence_ids is not None:
            raise ValueError("give either influence_ids (named placement) or placement_draws (random), not both")
        return self

    def label(self) -> str:
        """The name, or one derived from the content: two unnamed cases never share a label."""
        if self.name:
            return self.name
        base = f"{self.world}-{self.controller_name}" + (f"-{self.model}" if self.model else "")
        return f"{base}-{self.content_key()[:6]}"

    def content_key(self) -> str:
        """A hash of everything that changes the pair's result (the name is only a label). The
        controller is hashed under its old name, `policy`, so that the keys (pair ids, the tables'
        case keys, benchmark roles) of every folder recorded before the rename still resolve."""
        body = self.model_dump(mode="json", exclude={"name"} | ({"only_seeds"} if self.only_seeds is None else set()))
        body["policy"] = body.pop("controller")
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()

    def baseline(self, controller: str) -> Case:
        """The same world, parameters, objective, influence set and horizon, driven by `controller`."""
        return self.model_copy(update={"name": None, "controller": controller, "model": None, "controller_options": {}})

    def influence_ids_for(self, seed: int, draw: int) -> tuple[int, ...] | None:
        """Named ids, or the `draw`-th random set of this seed (addressed stream, so any case or
        baseline with the same world and dose gets the same set for the same seed and draw)."""
        if self.placement_draws is None:
            return self.influence_ids
        world_cls = get_world(self.world)
        probe = world_cls(world_cls.Params.from_strings(self.params), seed=seed)
        ids = sorted(probe.actor_ids())
        n = self.influence if self.influence is not None else world_cls._influence_count(probe.params)
        if n > len(ids):
            raise ConfigError("influence", f"{n} influence agents but only {len(ids)} agents")
        chosen = stream(seed, "placement", draw).choice(len(ids), size=n, replace=False)
        return tuple(sorted(ids[i] for i in chosen))

    def pair_spec(
        self,
        seed: int,
        extra_options: dict[str, Any] | None = None,
        draw: int = 0,
        max_policy_error_share: float = MAX_POLICY_ERROR_SHARE,
    ) -> PairSpec:
        options = dict(self.controller_options)
        if self.model:
            options.setdefault("model", self.model)
        options.update(extra_options or {})
        ids = self.influence_ids_for(seed, draw)
        return PairSpec.build(
            world=self.world,
            seed=seed,
            params=self.params,
            objective=self.objective,
            controller=self.controller_name,
            influence=None if ids is not None else self.influence,
            influence_ids=ids,
            rounds=self.rounds,
            controller_options=options,
            settle=self.settle,
            max_policy_error_share=max_policy_error_share,
        )


class Axes(BaseModel):
    """Suite axes: every case is played at each value (a case's own value is replaced)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: treatment horizons (rounds)
    rounds: tuple[int, ...] | None = None
    #: doses: numbers of influence agents
    influence: tuple[int, ...] | None = None
    #: placements: "default" (the world's ids), a list of named ids, or {"random": K}
    placement: tuple[Any, ...] | None = None
    #: models: each LLM case once per model ("provider:model"); other cases are played once
    models: tuple[str, ...] | None = None

    @field_validator("rounds", "influence")
    @classmethod
    def _positive(cls, v: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if v is not None and (not v or min(v) < 1):
            raise ValueError("need at least one value, each at least 1")
        if v is not None and len(set(v)) != len(v):
            raise ValueError(f"{min(x for x, n in Counter(v).items() if n > 1)} is given twice")
        return v

    @field_validator("rounds")
    @classmethod
    def _bounded_rounds(cls, v: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if v is not None and max(v) > MAX_ROUNDS:
            raise ValueError(f"{max(v)} rounds is above the limit of {MAX_ROUNDS}")
        return v

    @field_validator("models")
    @classmethod
    def _models(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if v is not None and not v:
            raise ValueError("need at least one model")
        return v if v is None else tuple(checked_model(m) for m in v)

    @field_validator("placement")
    @classmethod
    def _placement(cls, v: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
        for item in v or ():
            ok = (
                item == "default"
                or (isinstance(item, (list, tuple)) and all(isinstance(i, int) for i in item))
                or (
                    isinstance(item, dict)
                    and set(item) == {"random"}
                    and isinstance(item["random"], int)
                    and item["random"] >= 1
                )
            )
            if not ok:
                raise ValueError(f"expected default, a list of ids or {{random: K}}, got {item!r}")
        return v


class Suite(BaseModel):
    """What a suite file holds: `cases`, `seeds` (a count, a list or "A-B") and `repeats`, plus how
    the cases are compared: the baselines every case is contrasted with, extra contrasts between
    named cases, the Holm family, the TOST margin, axes, and the policy-error share that makes a
    pair invalid."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "suite"
    cases: tuple[Case, ...] = Field(min_length=1)
    seeds: int | tuple[int, ...] | str = 10
    seed_start: int = Field(0, ge=0)
    repeats: int = Field(1, ge=1)
    #: controllers every case is contrasted with on the same seeds ([] for none)
    baselines: tuple[str, ...] = ("stay", "mimic")
    #: extra contrasts, each [treatment case name, comparison case name]
    contrasts: tuple[tuple[str, str], ...] = ()
    #: the family Holm's correction runs over (every test of this suite); default: the suite's name
    family: str | None = None
    #: TOST equivalence margin in lift units; no TOST when unset
    equivalence_margin: float | None = Field(None, gt=0)
    axes: Axes = Field(default_factory=Axes)
    #: a pair whose controller failed more than this share of decisions is invalid
    max_policy_error_share: float = Field(MAX_POLICY_ERROR_SHARE, ge=0, le=1)

    @field_validator("seeds", "repeats", mode="before")
    @classmethod
    def _not_a_truth(cls, v: Any) -> Any:
        if isinstance(v, bool):  # YAML's `true` would count as 1
            raise ValueError("expected a number, not true/false")
        return v

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, v: Any) -> Any:
        if isinstance(v, int) and v < 1:
            raise ValueError("seed count must be at least 1")
        if isinstance(v, tuple) and (not v or min(v) < 0):
            raise ValueError("need at least one seed, none negative")
        if isinstance(v, tuple) and len(set(v)) != len(v):
            twice = min(s for s, n in Counter(v).items() if n > 1)
            raise ValueError(f"seed {twice} is given twice (a repeated seed would count one pair as two)")
        if isinstance(v, str):
            bounds = seed_range(v)
            if not bounds or bounds[1] < bounds[0]:
                raise ValueError(f"expected a range like 20-29, got {v!r}")
        return v

    @field_validator("baselines")
    @classmethod
    def _baselines(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for b in v:
            if b not in CONTROLLERS or b in ("llm", "replay"):
                raise ValueError(f"{b!r} cannot be a baseline (use a controller without options, e.g. stay, mimic)")
        return v

    @property
    def family_name(self) -> str:
        return self.family or self.name

    def seed_list(self) -> list[int]:
        if isinstance(self.seeds, int):
            return list(range(self.seed_start, self.seed_start + self.seeds))
        if isinstance(self.seeds, str):
            a, _, b = self.seeds.partition("-")
            return list(range(int(a), int(b) + 1))
        return list(self.seeds)

    def expanded_cases(self) -> list[Case]:
        """The cases after the axes: each case once per horizon x dose x placement."""
        out = []
        for case in self.cases:
            variants = [case]
            ax = self.axes
            if ax.rounds:
                variants = [_vary(c, f"r{r}", rounds=r) for c in variants for r in ax.rounds]
            if ax.influence:
                variants = [_vary(c, f"n{n}", influence=n, influence_ids=None) for c in variants for n in ax.influence]
            if ax.placement:
                variants = [_placed(c, pl) for c in variants for pl in ax.placement]
            if ax.models and case.controller_name == "llm":
                variants = [_vary(c, m, model=m) for c in variants for m in ax.models]
            out.extend(variants)
        return out

    def contrast_partners(self, case: Case) -> list[Case]:
        """The cases a case is contrasted with: for a contrast [A, B], each variant of A (A-r10-n4...)
        with the variant of B at the same axis values."""
        by_name = {c.name: c for c in self.expanded_cases() if c.name}
        out = []
        for first, other in self.contrasts:
            if case.name and case.name.startswith(first):
                tail = case.name[len(first) :]
                if (not tail or tail.startswith("-")) and other + tail in by_name:
                    out.append(by_name[other + tail])
        return out

    def baseline_controllers(self, case: Case) -> list[str]:
        """The baselines that apply to a case: a baseline is skipped for itself, and `mimic` for a
        world that has no rule_action (the summary says so)."""
        return [
            b for b in self.baselines if b != case.controller_name and (b != "mimic" or has_rule_action(case.world))
        ]


def _vary(case: Case, tag: str, **update: Any) -> Case:
    return case.model_copy(update={**update, "name": f"{case.name}-{tag}" if case.name else None})


def _placed(case: Case, placement: Any) -> Case:
    if placement == "default":
        return _vary(case, "default", influence_ids=None, placement_draws=None)
    if isinstance(placement, dict):
        return _vary(case, f"random{placement['random']}", influence_ids=None, placement_draws=placement["random"])
    ids = tuple(placement)
    return _vary(case, "ids" + "_".join(map(str, ids)), influence_ids=ids, influence=None, placement_draws=None)


def has_rule_action(world: str) -> bool:
    """By world name (a suite names its worlds): the world has the `RuleActions` capability."""
    from mam_bench.capabilities import RuleActions

    return isinstance(get_world(world), RuleActions)


#: controllers whose draws a pair's repeat and placement draw address (each repeat a new play)
REPLICATED = frozenset({"random"})


@dataclass(frozen=True)
class Pair:
    """One pair of the suite: a case, a seed, a repeat and a placement draw, with its content-keyed id.
    `role` is "case" for the suite's own cases and "baseline" for the added baseline runs."""

    pair_id: str
    case: Case
    seed: int
    repeat: int
    draw: int = 0
    role: str = "case"

    def spec(
        self, extra_options: dict[str, Any] | None = None, max_policy_error_share: float = MAX_POLICY_ERROR_SHARE
    ) -> PairSpec:
        extra = dict(extra_options or {})
        if self.case.controller_name in REPLICATED and (self.repeat or self.draw):
            extra.update(repeat=self.repeat, draw=self.draw)
        return self.case.pair_spec(self.seed, extra, self.draw, max_policy_error_share)


def pair_id(case: Case, seed: int, repeat: int, draw: int = 0) -> str:
    tail = f"|{draw}" if draw else ""
    return hashlib.sha256(f"{case.content_key()}|{seed}|{repeat}{tail}".encode()).hexdigest()[:16]


def planned_cases(suite: Suite) -> list[tuple[Case, str]]:
    """The suite's cases and their baselines (role "baseline"), each content once, in a stable order.
    A baseline that equals one of the suite's own cases is that case, not a second run."""
    own = suite.expanded_cases()
    keys = {c.content_key() for c in own}
    out: list[tuple[Case, str]] = [(c, "case") for c in own]
    for case in own:
        for b in suite.baseline_controllers(case):
            base = case.baseline(b)
            if base.content_key() not in keys:
                keys.add(base.content_key())
                out.append((base, "baseline"))
    return out


def pairs_of(suite: Suite) -> list[Pair]:
    """Every pair in a stable order: case, then seed, then repeat and draw. Baselines run once
    per seed and draw: `stay` and `mimic` are deterministic, so repeats would be copies."""
    out = []
    for case, role in planned_cases(suite):
        reps = suite.repeats if role == "case" else 1
        for seed in suite.seed_list():
            if case.only_seeds is not None and seed not in case.only_seeds:
                continue
            for rep in range(reps):
                for draw in range(case.placement_draws or 1):
                    out.append(Pair(pair_id(case, seed, rep, draw), case, seed, rep, draw, role))
    return out


def _check_case(i: int, case: Case, seed: int) -> None:
    """Resolve the case against its world (parameters, objective, influence ids)."""
    prefix = f"cases[{i}]."
    try:
        get_world(case.world)
        prepared(case.pair_spec(seed))  # builds both worlds once: undefined metrics are a clear error
    except ConfigError as exc:
        field = exc.field
        if field == "param" or field.startswith("param."):
            field = "params" + field[len("param") :]
        message = str(exc).split(": ", 1)[-1].removeprefix("Value error, ")
        raise ConfigError(prefix + field, message) from None


def _case_errors(data: dict, exc: ValidationError) -> list[ConfigError]:
    """The world-level errors of the cases the schema accepted: every typo in one report (one that
    stops at the first costs a rerun per typo)."""
    bad = {e["loc"][1] for e in exc.errors() if len(e.get("loc", ())) > 1 and e["loc"][0] == "cases"}
    cases = data.get("cases") if isinstance(data.get("cases"), list) else []
    out = []
    for i, raw in enumerate(cases):
        if i in bad or not isinstance(raw, dict):
            continue
        try:
            _check_case(i, Case(**raw), 0)
        except ConfigError as err:
            out.append(err)
        except ValidationError:
            continue
    return out


def _combined(errors: list[ConfigError]) -> ConfigError:
    """One ConfigError naming the first field; the others follow in its message."""
    first, rest = errors[0], errors[1:]
    if not rest:
        return first
    others = "; ".join(str(e) for e in rest)
    return ConfigError(first.field, f"{str(first).split(': ', 1)[-1]} (and {len(rest)} more: {others})")


def _located_one(err: Any) -> ConfigError:
    """pydantic's loc ('cases', 1, 'params') as a path: cases[1].params."""
    parts: list[str] = []
    for p in err.get("loc", ()):
        if isinstance(p, int):
            parts[-1:] = [f"{parts[-1]}[{p}]"] if parts else [f"[{p}]"]
        elif p in ("int", "tuple[int, ...]", "str") or str(p).startswith(("function-", "tuple[")):
            continue
        else:
            parts.append(str(p))
    msg = "unknown key" if err.get("type") == "extra_forbidden" else err.get("msg", "invalid value")
    return ConfigError(".".join(parts) or "suite", msg.removeprefix("Value error, "))


def parse_suite(data: Any) -> Suite:
    """Validate a loaded suite (dict) whole: schema, worlds, parameters, objectives, ids."""
    if not isinstance(data, dict):
        raise ConfigError("suite", "expected a mapping with cases, seeds, repeats")
    try:
        suite = Suite(**data)
    except ValidationError as exc:
        raise _combined([_located_one(e) for e in exc.errors()] + _case_errors(data, exc)) from None
    seen: dict[str, int] = {}
    for i, case in enumerate(suite.cases):
        if case.name is not None and case.name in seen:
            raise ConfigError(f"cases[{i}].name", f"{case.name!r} is already the name of cases[{seen[case.name]}]")
        seen.setdefault(case.name or "", i)
    first = suite.seed_list()[0]
    errors = []
    for i, case in enumerate(suite.cases):
        try:
            _check_case(i, case, first)
        except ConfigError as exc:
            errors.append(exc)
    if errors:
        raise _combined(errors)
    names = {c.name for c in suite.cases if c.name}
    for i, pair in enumerate(suite.contrasts):
        if pair[0] == pair[1]:
            raise ConfigError(f"contrasts[{i}]", f"contrasts {pair[0]!r} with itself (its lift over itself is 0)")
        if pair in suite.contrasts[:i]:
            raise ConfigError(f"contrasts[{i}]", f"{list(pair)} is given twice")
        for name in pair:
            if name not in names:
                raise ConfigError(
                    f"contrasts[{i}]", f"no case named {name!r} (named cases: {', '.join(sorted(names))})"
                )
    keys: dict[str, int] = {}
    for i, case in enumerate(suite.cases):
        if case.content_key() in keys:
            raise ConfigError(
                f"cases[{i}]",
                f"same content as cases[{keys[case.content_key()]}] (world, params, "
                "objective, controller, options and influence all equal)",
            )
        keys[case.content_key()] = i
    if "mimic" in data.get("baselines", ()):
        for i, case in enumerate(suite.cases):
            if not has_rule_action(case.world):
                raise ConfigError(
                    "baselines", f"mimic needs rule_action, which {case.world} (cases[{i}]) does not have"
                )
    for case, _ in planned_cases(suite):  # every axis value and baseline resolves before anything runs
        try:
            prepared(case.pair_spec(first))
        except ConfigError as exc:
            raise ConfigError(f"axes ({case.label()}): {exc.field}", str(exc).split(": ", 1)[-1]) from None
    return suite


class _UniqueKeyLoader(yaml.SafeLoader):
    """safe_load, but a key given twice in one mapping is an error (YAML keeps the last silently)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) or key is None:
                if key in seen:
                    raise ConfigError(
                        str(key),
                        f"key {key!r} is given twice in one mapping (line {key_node.start_mark.line + 1}); "
                        "YAML would keep only the last",
                    )
                seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(text: str) -> Any:
    """The suite's YAML as data; a repeated key is a ConfigError naming it and its line."""
    return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 (a SafeLoader subclass)


def old_names_read(data: Any, source: str) -> Any:
    """The suite's data with each case's `policy:` (the controller's old name) read as
    `controller:`, and one warning line on stderr for the file that used it; a case giving both
    is a ConfigError on its `policy` field."""
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not any(isinstance(c, dict) and "policy" in c for c in cases):
        return data
    for i, case in enumerate(cases):
        if isinstance(case, dict) and "policy" in case and "controller" in case:
            raise ConfigError(f"cases[{i}].policy", BOTH_KEYS)
    print(f'warning: {source}: "policy:" is now "controller:"', file=sys.stderr)
    renamed = [
        {("controller" if k == "policy" else k): v for k, v in c.items()} if isinstance(c, dict) else c for c in cases
    ]
    return {**data, "cases": renamed}


def load_suite(path: Path | str) -> Suite:
    p = Path(path)
    if not p.is_file():
        raise ConfigError("suite", f"no such file: {p}")
    try:
        data = read_yaml(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError("suite", f"not valid YAML: {exc}") from None
    return parse_suite(old_names_read(data, str(p)))


__all__ = [
    "Case",
    "Suite",
    "Axes",
    "Pair",
    "planned_cases",
    "has_rule_action",
    "load_suite",
    "old_names_read",
    "parse_suite",
    "pairs_of",
    "pair_id",
]
