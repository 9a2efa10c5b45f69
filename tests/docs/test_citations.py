"""Code and docs cite only pages of this repository: every `docs/....md` a source file names exists
(with the section it names, where it names one), and nothing cites the design notes or specs that
live outside the repository."""

import re
from pathlib import Path

from tests.docs.markdown_blocks import ROOT

#: the folders whose files may cite documentation (the installed code, and what runs beside it)
CODE = ("mam_bench", "models", "steering", "dashboards", "bench", "tests", "scripts", "research")
#: a page and, optionally, the section it names: `docs/worlds/swarm.md, "Physics"` or `...md#physics`
CITATION = re.compile(r'(docs/[\w./-]+?\.md)(?:#([\w-]+)|,\s*"([^"]+)")?')
#: citations of documents outside the repository (built from parts, so this file does not match)
OUTSIDE = re.compile(
    "|".join(("design" + r"\.md", "spec" + "/", "spec" + " section", "spec" + " §", "/work/" + "shared"))
)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$")


def sources() -> list[Path]:
    """Every text file under the code folders (caches left out), the README and the docs pages."""
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".png", ".npy"):
                found.append(path)
    return found


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary fixture
        return None


def headings(page: Path) -> set[str]:
    """The section titles of a page, as written, and their MkDocs anchors."""
    titles = {m.group(1) for line in page.read_text().splitlines() if (m := _HEADING.match(line))}
    return titles | {anchor(t) for t in titles}


def anchor(title: str) -> str:
    """MkDocs' (Python-Markdown toc's) default anchor of a heading."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", title).strip().lower())


def broken_citations(text: str) -> list[str]:
    """Every cited page that does not exist, and every cited section its page does not have."""
    broken = []
    for m in CITATION.finditer(text):
        page, section = ROOT / m.group(1), m.group(2) or m.group(3)
        if not page.is_file():
            broken.append(f"{m.group(1)}: no such page")
        elif section is not None and section not in headings(page):
            broken.append(f'{m.group(1)}: no section "{section}"')
    return broken


def outside_citations(text: str) -> list[str]:
    return [m.group(0) for m in OUTSIDE.finditer(text)]


def test_every_cited_page_and_section_exists() -> None:
    cited, broken = 0, []
    for path in sources():
        if path.parts[-3:-1] == ("tests", "docs") or path.suffix == ".md":
            continue  # links between pages are mkdocs' to check (test_site); here: what code cites
        text = text_of(path)
        if text is None:
            continue
        cited += len(CITATION.findall(text))
        broken += [f"{path.relative_to(ROOT)}: {b}" for b in broken_citations(text)]
    assert not broken, "\n".join(broken)
    assert cited >= 40  # the worlds' modules cite their pages; a pattern that finds none proves nothing


def test_nothing_cites_documents_outside_the_repository() -> None:
    found = []
    for path in sources():
        text = text_of(path)
        if text is None or path == Path(__file__):
            continue
        found += [f"{path.relative_to(ROOT)}: {hit}" for hit in outside_citations(text)]
    assert not found, "\n".join(found)


def test_the_checks_catch_what_they_look_for() -> None:
    """Both checks flag what they exist to flag, so the two tests above can fail."""
    assert broken_citations("see docs/worlds/nowhere.md") == ["docs/worlds/nowhere.md: no such page"]
    assert broken_citations('see (docs/worlds/swarm.md, "Gravity")') == ['docs/worlds/swarm.md: no section "Gravity"']
    assert broken_citations("docs/worlds/swarm.md#telepathy") == ['docs/worlds/swarm.md: no section "telepathy"']
    assert broken_citations('(docs/worlds/swarm.md, "Physics") and docs/worlds/swarm.md#pursuit') == []
    cited = "(see " + "design" + ".md) and " + "spec" + "/schelling.md, " + "spec" + " section 6"
    assert len(outside_citations(cited)) == 3
    assert outside_citations("docs/world-contract.md, spec.json") == []
