"""Dead-code scan: vulture finds no unused name outside the whitelist.

Vulture runs through its Python API at confidence 60, the lowest it reports, so every finding
counts: unused functions, classes, methods, attributes, variables (60%), imports (90%) and
unreachable code (100%). Names only reached through text (entry points, "module:attr"
registrations) or by a framework are in tests/core/vulture_whitelist.py, each with its reason.
Vulture matches attributes by name across the whole tree, so an unused method that shares its
name with a used one elsewhere (e.g. `touch`, `posts`) escapes it; those were removed by hand.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from vulture import Vulture

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("mam_bench", "models", "steering", "dashboards")
WHITELIST = Path(__file__).with_name("vulture_whitelist.py")
MIN_CONFIDENCE = 60
#: pydantic calls these; listing each validator by name would only restate the decorator
IGNORE_DECORATORS = ["@field_validator", "@model_validator"]


def unused(paths: list[Path]) -> list[tuple[str, str, int, int]]:
    """(name, file, line, confidence) of every name vulture finds unused in `paths`."""
    v = Vulture(ignore_decorators=IGNORE_DECORATORS)
    v.scavenge([str(p) for p in paths])
    found = v.get_unused_code(min_confidence=MIN_CONFIDENCE)
    return [(item.name, str(item.filename), item.first_lineno, item.confidence) for item in found]


def whitelisted() -> dict[str, str]:
    """Whitelisted name -> its reason (the line's comment)."""
    out = {}
    lines = WHITELIST.read_text(encoding="utf-8").splitlines()
    for node in ast.parse(WHITELIST.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Expr) or isinstance(node.value, ast.Constant):
            continue
        name = node.value.attr if isinstance(node.value, ast.Attribute) else node.value.id
        _, _, reason = lines[node.lineno - 1].partition("#")
        out[name] = reason.strip()
    return out


def test_no_unused_names_outside_the_whitelist():
    found = unused([ROOT / p for p in SCANNED] + [WHITELIST])
    assert found == [], "unused (remove them, or whitelist with a reason):\n" + "\n".join(map(str, found))


def test_every_whitelist_entry_has_a_reason_and_is_still_needed():
    names = whitelisted()
    assert len(names) > 10  # the parser read the file
    short = [n for n, why in names.items() if len(why.split()) < 3]
    assert short == [], f"whitelist entries without a reason: {short}"
    reported = {name for name, *_ in unused([ROOT / p for p in SCANNED])}
    stale = sorted(set(names) - reported)
    assert stale == [], f"whitelisted but no longer reported (drop them): {stale}"


def test_the_scan_reports_a_planted_dead_function(tmp_path):
    """The scan can fail: a module with one used and one unused function reports only the unused one."""
    (tmp_path / "planted.py").write_text(
        textwrap.dedent(
            """
            def used() -> int:
                return 1


            def never_called() -> int:
                return 2


            print(used())
            """
        )
    )
    assert [name for name, *_ in unused([tmp_path])] == ["never_called"]
