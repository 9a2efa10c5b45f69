"""Worlds and controllers by name. A world registers once, through the `mam_bench.worlds` entry point.

The entry point names a `WorldRegistration`: the world class and, optionally, its heuristic,
prompts, dashboard renderer, landscape axes and tasks, each as a lazy "module:attr" text so that
listing worlds imports nothing heavy and core never imports the UI. Built-in worlds register the
same way (pyproject.toml), so core holds no world names. Entry points are read once per process.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from mam_bench.errors import ConfigError

if TYPE_CHECKING:
    from mam_bench.controller import Controller
    from mam_bench.world import SteerableWorld

GROUP = "mam_bench.worlds"

CONTROLLER_GROUP = "mam_bench.controllers"


@cache
def controller_paths() -> dict[str, str]:
    """Controller name -> "module:attr" of its factory, from every `mam_bench.controllers` entry point
    (read once): the built-in controllers register there exactly as a plug-in's would."""
    out: dict[str, str] = {}
    for ep in entry_points(group=CONTROLLER_GROUP):
        if ep.name in out and out[ep.name] != ep.value:
            raise RuntimeError(f"controller {ep.name!r} is registered twice ({out[ep.name]}, {ep.value})")
        out[ep.name] = ep.value
    return out


class _Controllers(Mapping[str, str]):
    """`CONTROLLERS[name]`: the registered controllers, looked up on first use, not at import."""

    def __getitem__(self, name: str) -> str:
        return controller_paths()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(controller_paths())

    def __len__(self) -> int:
        return len(controller_paths())


CONTROLLERS: Mapping[str, str] = _Controllers()


@dataclass(frozen=True)
class WorldRegistration:
    """Every part of one world, named once. Texts are "module:attr" (or "module" for a renderer).

    world: the SteerableWorld class. heuristic: a factory (world_cls, objective, **options) ->
    Controller. prompts: a WorldPrompts class for the llm controller. renderer: a module with
    `draw_board(ax, row, info)` (optional `Extras`), or "module:attr" of a Mesa-style
    `agent_portrayal(agent) -> dict` for the generic renderer. landscape: the parameter names
    a reference landscape sweeps. landscape_kernel: an object with the world class's landscape
    interface (`Params`, `reference_outcome(params, seed, max_rounds)`) that imports without the
    world, so a landscape does not wait for Mesa to import (without it, the world has no landscape).
    tasks: kept so that older registrations load; whether a world has tasks is asked of its Params
    (`isinstance(world_cls.Params, mam_bench.capabilities.Tasks)`), like every other capability.
    """

    world: str
    heuristic: str | None = None
    prompts: str | None = None
    renderer: str | None = None
    landscape: tuple[str, ...] = ()
    landscape_kernel: str | None = None
    tasks: bool = False
    #: (name, "module:attr") of analyses `report DIR --analysis NAME` runs: attr(folder: Path) -> str
    analyses: tuple[tuple[str, str], ...] = ()
    #: (format, "module:attr") of `export RUN --format NAME`: attr(run: Path, out: Path, keep_prompts) -> str
    exports: tuple[tuple[str, str], ...] = ()
    #: "module:attr" of `async judge(world, out) -> dict`: outcomes judged after the run (an LLM
    #: judge, say), reported beside the metrics; `out` is the run directory for its cache (None: none)
    judge: str | None = None
    #: the world a dashboard opens on when none is named, and its seed there
    featured: bool = False
    dashboard_seed: int = 0


def load(path: str) -> Any:
    """Import "module:attr" (or a module when there is no ':')."""
    module, _, attr = path.partition(":")
    mod = importlib.import_module(module)
    return getattr(mod, attr) if attr else mod


def entry_points(**selection: Any) -> Any:
    """importlib.metadata's, imported on first use: `mam-bench --help` need not pay for it."""
    from importlib import metadata

    return metadata.entry_points(**selection)


class _Registered(MutableMapping[str, WorldRegistration]):
    """The registered worlds by name. Each world's registration is imported when first asked for,
    so a command about one world (`landscape schelling`) does not import every other world's package."""

    def __init__(self, points: Any) -> None:
        self._points: dict[str, list[Any]] = {}
        for ep in points:
            self._points.setdefault(ep.name, []).append(ep)
        self._loaded: dict[str, WorldRegistration] = {}

    def __getitem__(self, name: str) -> WorldRegistration:
        if name not in self._loaded:
            self._loaded[name] = _load_registration(name, self._points[name])
        return self._loaded[name]

    def __setitem__(self, name: str, reg: WorldRegistration) -> None:
        self._points.setdefault(name, [])
        self._loaded[name] = reg

    def __delitem__(self, name: str) -> None:
        del self._points[name]
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._points

    def __iter__(self) -> Iterator[str]:
        return iter(self._points)

    def __len__(self) -> int:
        return len(self._points)


def _load_registration(name: str, points: list[Any]) -> WorldRegistration:
    """The one registration behind a world's entry points; one that does not import, or two that
    differ, fail loudly: a broken plug-in must not silently drop out of an experiment grid."""
    found: WorldRegistration | None = None
    for ep in points:
        try:
            reg = ep.load()
        except Exception as exc:
            raise RuntimeError(f"world {name!r}: its registration {ep.value} does not import: {exc}") from exc
        if isinstance(reg, str):  # a bare "module:Class" world path is accepted too
            reg = WorldRegistration(world=reg)
        if not isinstance(reg, WorldRegistration):
            raise RuntimeError(f"world {name!r}: {ep.value} is not a WorldRegistration")
        if found is not None and found != reg:
            raise RuntimeError(f"world {name!r} is registered twice ({ep.value})")
        found = reg
    assert found is not None  # a name comes from at least one entry point
    return found


@cache
def registrations() -> MutableMapping[str, WorldRegistration]:
    """World name -> registration, from every installed `mam_bench.worlds` entry point (read once;
    each registration imported on first use)."""
    return _Registered(entry_points(group=GROUP))


def world_names() -> list[str]:
    """Every registered world, each registration imported (a broken one fails here, loudly)."""
    table = registrations()
    for name in table:
        table[name]  # imports its registration
    return sorted(table)


def registration(name: str) -> WorldRegistration:
    table = registrations()
    if name not in table:
        raise ConfigError("world", f"unknown world {name!r} (known: {', '.join(sorted(table))})")
    return table[name]


def get_world(name: str) -> type[SteerableWorld]:
    return _world(registration(name).world)


@cache
def _world(path: str) -> type[SteerableWorld]:
    return load(path)


def default_world() -> tuple[str, int]:
    """The world (and seed) a dashboard opens on: the featured one, else the first registered."""
    table = registrations()
    featured = [n for n in sorted(table) if table[n].featured] or sorted(table)
    if not featured:
        raise ConfigError("world", "no world is registered")
    return featured[0], table[featured[0]].dashboard_seed


def controller_names() -> list[str]:
    return sorted(CONTROLLERS)


def make_controller(
    name: str, world_cls: type[SteerableWorld], objective: str, options: dict[str, Any] | None = None
) -> Controller:
    """Build a controller by its registered name; LLM and replay options arrive in `options`."""
    if name not in CONTROLLERS:
        raise ConfigError("controller", f"unknown controller {name!r} (known: {', '.join(controller_names())})")
    try:
        factory = load(CONTROLLERS[name])
    except ImportError as exc:
        from mam_bench.extras import MissingExtra, extra_for

        if extra_for(exc):
            raise MissingExtra(extra_for(exc)) from None
        raise
    return factory(world_cls=world_cls, objective=objective, **(options or {}))


def controller_part(name: str, part: str) -> Any:
    """A function beside a registered controller's factory (the llm controller's `turn_bound`, for
    cost estimates), or None where its module offers none; the controller itself is not built."""
    module = importlib.import_module(CONTROLLERS[name].split(":")[0])
    return getattr(module, part, None)


def offered(kind: Literal["analyses", "exports"], name: str) -> Any:
    """The analysis or export function some registered world offers under `name`."""
    found = {
        n: path for reg in registrations().values() for n, path in (reg.analyses if kind == "analyses" else reg.exports)
    }
    if name not in found:
        field = {"analyses": "analysis", "exports": "format"}[kind]
        known = ", ".join(sorted(found)) or "none"
        raise ConfigError(field, f"no {field} {name!r} (offered by the registered worlds: {known})")
    return load(found[name])


CHAT_MODEL_GROUP = "mam_bench.chat_models"


def chat_model(model: str, api_key_env: str | None = None, temperature: float = 0.0) -> Any:
    """A chat model from the registered builder (the [llm] extra registers one), for the parts of
    a world that ask a model themselves (an LLM judge of the outcome); core and worlds never import it."""
    from mam_bench.extras import MissingExtra, extra_for

    builders = list(entry_points(group=CHAT_MODEL_GROUP))
    if not builders:
        raise MissingExtra("llm")
    try:
        return builders[0].load()(model=model, api_key_env=api_key_env, temperature=temperature)
    except ImportError as exc:
        if extra_for(exc):
            raise MissingExtra(extra_for(exc)) from None
        raise


PROVIDERS_GROUP = "mam_bench.model_providers"


@cache
def model_providers() -> frozenset[str] | None:
    """The model providers every `mam_bench.model_providers` entry point knows (read once), for
    validating a "provider:model" text; None when none of them can tell (any provider passes)."""
    found: frozenset[str] | None = None
    for ep in entry_points(group=PROVIDERS_GROUP):
        names = ep.load()()
        if names is not None:
            found = (found or frozenset()) | frozenset(names)
    return found


def part_of(world_cls: type[SteerableWorld], part: Literal["heuristic", "prompts", "renderer", "judge"]) -> str | None:
    """The registered `part` of a world class, if any (a world that is not registered has none)."""
    reg = registrations().get(world_cls.name)
    if reg is None:
        return None
    return {"heuristic": reg.heuristic, "prompts": reg.prompts, "renderer": reg.renderer, "judge": reg.judge}[part]
