"""The YAML suite: cases x seeds x repeats, validated whole before a single pair runs.

A typo anywhere fails with the path to the bad field (`cases[1].params.threshld: unknown key`),
and each pair is keyed by the content of its case, seed and repeat, not by its position, so a
resumed or reordered suite finds its finished pairs again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from mam_bench.errors import ConfigError, config_error_from
from mam_bench.registry import CONTROLLERS, get_world
from mam_bench.runner import PairSpec, prepare

#: providers `init_chat_model("provider:model")` knows, plus the test doubles
MODEL_PROVIDERS = frozenset({
    "openai", "anthropic", "azure_openai", "azure_ai", "google_vertexai", "google_genai", "bedrock",
    "bedrock_converse", "cohere", "fireworks", "together", "mistralai", "huggingface", "groq", "ollama",
    "google_anthropic_vertex", "deepseek", "ibm", "nvidia", "xai", "perplexity", "llamacpp", "local", "fake",
})


class Case(BaseModel):
    """One setting: a world, its parameters, an objective and a controller (or a model)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = None
    world: str
    params: dict[str, Any] = Field(default_factory=dict)
    objective: str | None = None
    policy: str | None = None
    model: str | None = None
    influence: int | None = Field(None, ge=0)
    influence_ids: tuple[int, ...] | None = None
    rounds: int | None = Field(None, ge=1)
    controller_options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("model")
    @classmethod
    def _provider(cls, v: str | None) -> str | None:
        if v is None:
            return v
        provider, sep, name = v.partition(":")
        if not sep or not name:
            raise ValueError(f"expected provider:model, got {v!r}")
        if provider not in MODEL_PROVIDERS:
            raise ValueError(f"unknown model provider {provider!r} (known: {', '.join(sorted(MODEL_PROVIDERS))})")
        return v

    @property
    def controller(self) -> str:
        return self.policy or ("llm" if self.model else "rule")

    @field_validator("policy")
    @classmethod
    def _policy_known(cls, v: str | None) -> str | None:
        if v is not None and v not in CONTROLLERS:
            raise ValueError(f"unknown policy {v!r} (known: {', '.join(sorted(CONTROLLERS))})")
        return v

    @model_validator(mode="after")
    def _model_needs_llm(self) -> "Case":
        if self.model and self.controller != "llm":
            raise ValueError(f"a model needs policy llm, not {self.policy!r}")
        return self

    def label(self) -> str:
        return self.name or f"{self.world}-{self.controller}" + (f"-{self.model}" if self.model else "")

    def content_key(self) -> str:
        """A hash of everything that changes the pair's result (the name is only a label)."""
        body = self.model_dump(mode="json", exclude={"name"})
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()

    def pair_spec(self, seed: int, extra_options: dict[str, Any] | None = None) -> PairSpec:
        options = dict(self.controller_options)
        if self.model:
            options.setdefault("model", self.model)
        options.update(extra_options or {})
        return PairSpec.build(
            world=self.world, seed=seed, params=self.params, objective=self.objective, policy=self.controller,
            influence=self.influence, influence_ids=self.influence_ids, rounds=self.rounds,
            controller_options=options,
        )


class Suite(BaseModel):
    """What a suite file holds: `cases`, `seeds` (a count, a list or "A-B") and `repeats`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "suite"
    cases: tuple[Case, ...] = Field(min_length=1)
    seeds: int | tuple[int, ...] | str = 10
    seed_start: int = Field(0, ge=0)
    repeats: int = Field(1, ge=1)

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, v: Any) -> Any:
        if isinstance(v, int) and v < 1:
            raise ValueError("seed count must be at least 1")
        if isinstance(v, tuple) and (not v or min(v) < 0):
            raise ValueError("need at least one seed, none negative")
        if isinstance(v, str):
            a, sep, b = v.partition("-")
            if not sep or not a.strip().isdigit() or not b.strip().isdigit() or int(b) < int(a):
                raise ValueError(f"expected a range like 20-29, got {v!r}")
        return v

    def seed_list(self) -> list[int]:
        if isinstance(self.seeds, int):
            return list(range(self.seed_start, self.seed_start + self.seeds))
        if isinstance(self.seeds, str):
            a, _, b = self.seeds.partition("-")
            return list(range(int(a), int(b) + 1))
        return list(self.seeds)


@dataclass(frozen=True)
class Pair:
    """One pair of the suite: a case, a seed and a repeat, with its content-keyed id."""

    pair_id: str
    case_index: int
    case: Case
    seed: int
    repeat: int


def pair_id(case: Case, seed: int, repeat: int) -> str:
    return hashlib.sha256(f"{case.content_key()}|{seed}|{repeat}".encode()).hexdigest()[:16]


def pairs_of(suite: Suite) -> list[Pair]:
    """Every pair in a stable order: case, then seed, then repeat."""
    out = []
    for i, case in enumerate(suite.cases):
        for seed in suite.seed_list():
            for rep in range(suite.repeats):
                out.append(Pair(pair_id(case, seed, rep), i, case, seed, rep))
    return out


def _check_case(i: int, case: Case, seed: int) -> None:
    """Resolve the case against its world (parameters, objective, influence ids)."""
    prefix = f"cases[{i}]."
    try:
        get_world(case.world)
        prepare(case.pair_spec(seed))
    except ConfigError as exc:
        field = exc.field
        if field == "param" or field.startswith("param."):
            field = "params" + field[len("param"):]
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
    first = suite.seed_list()[0]
    errors = []
    for i, case in enumerate(suite.cases):
        try:
            _check_case(i, case, first)
        except ConfigError as exc:
            errors.append(exc)
    if errors:
        raise _combined(errors)
    return suite


def load_suite(path: Path | str) -> Suite:
    p = Path(path)
    if not p.is_file():
        raise ConfigError("suite", f"no such file: {p}")
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError("suite", f"not valid YAML: {exc}") from None
    return parse_suite(data)


__all__ = ["Case", "Suite", "Pair", "MODEL_PROVIDERS", "load_suite", "parse_suite", "pairs_of", "pair_id",
           "config_error_from"]
