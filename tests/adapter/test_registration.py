"""One registration per world: entry points read once, built-ins registered like plug-ins, no world
names in core or in the shared code of steering and dashboards (acceptance 5)."""

from __future__ import annotations

import ast
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from mam_bench import registry
from mam_bench.registry import WorldRegistration, get_world, registrations, world_names

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("schelling", "pursuit", "synchronization", "foraging", "flocking", "transport", "crafting")
PACKAGES = ("schelling", "swarm", "crafting", "boltzmann", "voter", "civil_violence", "social_media")


def test_every_entry_point_in_pyproject_is_a_registered_world() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["mam_bench.worlds"]
    assert set(BUILT_IN) <= set(declared)
    assert set(declared) <= set(world_names())
    for name in declared:
        assert isinstance(registrations()[name], WorldRegistration)
        assert get_world(name).name == name


def test_entry_points_are_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = registry.entry_points
    monkeypatch.setattr(registry, "entry_points", lambda **kw: calls.append(kw) or real(**kw))
    registry.registrations.cache_clear()
    try:
        world_names(), get_world("voter"), world_names()
        assert len(calls) == 1
    finally:
        registry.registrations.cache_clear()


def test_a_world_that_does_not_import_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = EntryPoint("broken", "no_such_module_for_mam.registration:registration", registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda **kw: [broken])
    registry.registrations.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="broken.*does not import"):
            world_names()
    finally:
        registry.registrations.cache_clear()


def _names() -> set[str]:
    return set(BUILT_IN) | set(PACKAGES)


def _offences(path: Path, root: Path = ROOT) -> list[str]:
    """World names in code: string literals (not docstrings), identifiers and imported module paths.

    "transport" is also the LLM controller's HTTP transport layer, so it counts only as a whole
    string literal; comments and docstrings may mention worlds as examples.
    """
    tree = ast.parse(path.read_text())
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    words = _names() - {"transport"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value.lower().replace(".", " ").replace(":", " ").replace("/", " ").replace("_", " ")
            hits = (words & set(text.split())) | ({"transport"} & {node.value.lower()})
            found += [f"{path.relative_to(root)}:{node.lineno} string {h!r}" for h in hits]
        elif isinstance(node, (ast.Name, ast.Attribute, ast.FunctionDef, ast.ClassDef, ast.alias)):
            name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", "")
            parts = set(name.lower().replace(".", "_").split("_"))
            found += [
                f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)} name {name!r}"
                for h in words
                if h in parts or name.lower().startswith(h)
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            parts = set(node.module.split("."))
            found += [f"{path.relative_to(root)}:{node.lineno} import {node.module}" for h in words if h in parts]
    return found


def shared_files() -> list[Path]:
    return [p for folder in ("mam_bench", "steering", "dashboards") for p in (ROOT / folder).rglob("*.py")]


def test_no_built_in_world_name_in_core_or_shared_code() -> None:
    files = shared_files()
    assert len(files) > 40  # the scan sees the whole tree
    offences = [o for f in files for o in _offences(f)]
    assert offences == []


def test_the_scan_finds_a_planted_name(tmp_path: Path) -> None:
    """Planted in a folder of its own: a file planted in the checkout would make every run started
    meanwhile record a dirty tree."""
    planted = tmp_path / "mam_bench" / "_planted_for_test.py"
    planted.parent.mkdir()
    planted.write_text(
        '"""Docstrings may say schelling."""\nWORLD = "schelling"\nfrom mam_bench.models.swarm import grid\n'
    )
    assert len(_offences(planted, tmp_path)) == 2


def test_every_part_of_a_world_lives_in_its_own_folder() -> None:
    """A built-in world registers as a third-party one does: every part it names is under models/."""
    for name, reg in registrations().items():
        parts = [reg.world, reg.heuristic, reg.prompts, reg.renderer, reg.landscape_kernel]
        folders = {p.split(":")[0].split(".")[2] for p in parts if p}
        assert folders <= {
            "schelling",
            "swarm",
            "crafting",
            "boltzmann",
            "voter",
            "civil_violence",
            "civil_violence_cascade",
            "supply_chain",
            "social_media",
        }, (name, folders)
        assert len(folders) == 1, (name, folders)
