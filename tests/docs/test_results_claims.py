"""Results pages claim a comparison only with its interval over seeds: every sentence that says a
controller beats another (or does not) cites a 95% interval, written [low, high]; a table of single
seeds says that it is an example."""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs.markdown_blocks import ROOT

RESULTS = ROOT / "docs" / "results"
#: an interval as the tools print it: [+0.0720, +0.2357], [-0.25, +2.00], [1.00, 1.00]
INTERVAL = re.compile(r"\[[+-]?\d[\d.]*(?:e[+-]?\d+)?, [+-]?\d[\d.]*(?:e[+-]?\d+)?\]")
COMPARES = re.compile(r"\bbeats?\b", re.IGNORECASE)


def prose(text: str) -> list[str]:
    """The page's paragraphs and list items, each joined into one line; code blocks, tables and
    headings left out."""
    out, current, fenced = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        starts_item = re.match(r"\s*(?:[-*]|\d+\.) ", line)
        if fenced or not line.strip() or line.startswith(("|", "#", "<!--")) or starts_item:
            if current:
                out.append(" ".join(current))
            current = [line.strip()] if starts_item and not fenced else []
            continue
        current.append(line.strip())
    if current:
        out.append(" ".join(current))
    return out


def sentences(paragraph: str) -> list[str]:
    """A paragraph cut after a full stop, question or exclamation mark (or a bold sentence's `.**`)
    followed by a capital, a backtick, a bracket or bold."""
    return re.split(r"(?<=[.!?])\*{0,2}\s+(?=[A-Z`(\[*])", paragraph)


def uncited(page: Path) -> list[str]:
    return [s for p in prose(page.read_text()) for s in sentences(p) if COMPARES.search(s) and not INTERVAL.search(s)]


def test_the_splitter_finds_a_claim_without_an_interval(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "A table.\n\n| a | b |\n|---|---|\n| beats | 1 |\n\nThe heuristic beats both. It steers\n"
        "(lift +0.1 [+0.02, +0.18]), and it beats `stay` by +0.05 [-0.01, +0.11].\n"
        "- **Pursuit: no strategy beats idling.** The heuristic +0.9.\n"
    )
    assert uncited(page) == ["The heuristic beats both.", "- **Pursuit: no strategy beats idling."]


def test_every_claim_that_one_controller_beats_another_cites_an_interval() -> None:
    found = {page.name: uncited(page) for page in sorted(RESULTS.glob("*.md"))}
    assert any(COMPARES.search(page.read_text()) for page in RESULTS.glob("*.md"))  # the test has claims to read
    bad = {name: s for name, s in found.items() if s}
    assert not bad, f"sentences that compare without an interval over seeds: {bad}"


def test_the_single_seed_tables_say_they_are_examples() -> None:
    text = (RESULTS / "examples.md").read_text()
    head = text[: text.index("| world | seed |")]
    assert "example" in head.lower() and "one seed" in head.lower()
