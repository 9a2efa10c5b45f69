"""A house rule that a linter does not check: no text round trips.

Observations carry numbers; `to_text()` only renders them for a prompt. A heuristic or a
dashboard that parsed such text back would silently break when the rendering changes, so
these modules may not use regular expressions or split strings, except where a line below
says what (non-world) text it reads and why.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: modules that read observations and records (heuristics, dashboards)
READERS = sorted(
    [
        *(ROOT / "models").glob("*/heuristic.py"),
        *(ROOT / "models").glob("*/renderer.py"),
        *(ROOT / "models").glob("*/board_image.py"),
        *(ROOT / "dashboards").rglob("*.py"),
    ]
)
SPLITS = {"split", "rsplit", "partition", "rpartition", "splitlines"}
#: (file, source line) -> why the string it splits is not text a world formatted
ALLOWED = {
    (
        "dashboards/config.py",
        'ids = tuple(int(x) for x in text.split(",") if x.strip())',
    ): "the influence ids a user typed into the page's URL",
    (
        "dashboards/security.py",
        'return tuple(x for x in os.environ.get(name, "").split(",") if x)',
    ): "the allow-lists the server was started with (environment)",
    (
        "dashboards/security.py",
        'provider = model.partition(":")[0]',
    ): "the PROVIDER:MODEL name a user chose in the page",
    (
        "models/swarm/renderer.py",
        'r, c = (int(x) for x in key.split(","))',
    ): "JSON object keys are strings: the snapshot's mark cells are recorded as 'r,c' keys",
}


def text_round_trips(source: str, name: str) -> list[str]:
    """Every regex use and string split in `source`, as 'name:line: text'."""
    found = []
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(m == "re" or m.startswith("re.") for m in mods):
                found.append(f"{name}:{node.lineno}: imports re")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SPLITS:
            line = lines[node.lineno - 1].strip()
            if (name, line) not in ALLOWED:
                found.append(f"{name}:{node.lineno}: {line}")
    return found


def test_the_scan_finds_a_round_trip() -> None:
    source = "import re\n\ndef threshold(obs):\n    return obs.to_text().split('/')[0]\n"
    assert len(text_round_trips(source, "x.py")) == 2


def test_no_heuristic_or_dashboard_parses_world_text() -> None:
    assert READERS, "no modules found to scan"
    found = []
    for path in READERS:
        found += text_round_trips(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)
