"""The core's import graph, as an import-graph tool sees it: every import statement counts, also
those inside functions and under TYPE_CHECKING. The core has no circle, and neither the core nor a
world reaches into the LLM controller (`steering.llm`): they name its parts only through the registry."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {
    "mam_bench": "mam_bench",
    "models": "mam_bench.models",
    "steering": "mam_bench.steering",
    "dashboards": "mam_bench.dashboards",
}


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root)
    parts = list(rel.with_suffix("").parts)
    prefix = FOLDERS[parts[0]]
    rest = [p for p in parts[1:] if p != "__init__"]
    return ".".join([prefix, *rest])


def imports_of(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The project modules `path` imports: `from a.b import c` names a.b.c if that is a module."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph(root: Path = ROOT) -> nx.DiGraph:
    files = [p for folder in FOLDERS for p in (root / folder).rglob("*.py") if "__pycache__" not in p.parts]
    known = {module_name(p, root) for p in files}
    g = nx.DiGraph()
    for p in files:
        g.add_node(module_name(p, root))
        for target in imports_of(p, known, root):
            g.add_edge(module_name(p, root), target)
    return g


def core(name: str) -> bool:
    return name.startswith("mam_bench.") and name.split(".")[1] not in ("models", "steering", "dashboards")


def test_the_core_has_no_import_circle() -> None:
    g = graph()
    sub = g.subgraph([n for n in g if core(n)])
    assert len(sub) > 40
    cycles = list(nx.simple_cycles(sub))
    assert cycles == [], f"{len(cycles)} circles, e.g. {' -> '.join(min(cycles, key=len))}"


def test_the_graph_sees_a_planted_circle(tmp_path: Path) -> None:
    """Planted in a copy of the core: files planted in the checkout would make every run started
    meanwhile record a dirty tree."""
    shutil.copytree(ROOT / "mam_bench", tmp_path / "mam_bench", ignore=shutil.ignore_patterns("__pycache__"))
    planted = [tmp_path / "mam_bench" / "_planted_a.py", tmp_path / "mam_bench" / "_planted_b.py"]
    planted[0].write_text("def f():\n    from mam_bench import _planted_b\n")
    planted[1].write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mam_bench._planted_a import f\n"
    )
    g = graph(tmp_path)
    assert ["mam_bench._planted_a", "mam_bench._planted_b"] in [sorted(c) for c in nx.simple_cycles(g)]
    assert [c for c in nx.simple_cycles(g) if "mam_bench._planted_a" not in c] == []  # the copy's only circle


def test_neither_core_nor_worlds_import_the_llm_controller() -> None:
    g = graph()
    offences = [
        (a, b)
        for a, b in g.edges
        if b.startswith("mam_bench.steering.llm") and (core(a) or a.startswith("mam_bench.models."))
    ]
    assert offences == []
