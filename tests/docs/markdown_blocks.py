"""The fenced blocks of the documentation that the tests run: command blocks marked runnable and
the guide's Python blocks."""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the line that marks the next ```console block as runnable (its `$ ` lines are run, the other
#: lines must come out of them)
RUNNABLE = "<!-- runnable -->"
_FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    text: str
    runnable: bool

    @property
    def commands(self) -> list[str]:
        return [s[2:] for s in self.text.splitlines() if s.startswith("$ ")]

    @property
    def expected(self) -> list[str]:
        return [s.rstrip() for s in self.text.splitlines() if s.strip() and not s.startswith("$ ")]


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    lines = path.read_text().splitlines()
    found, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m:
            start, lang = i, m.group(1)
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            marked = start > 0 and lines[start - 1].strip() == RUNNABLE
            rel = str(path.relative_to(ROOT))
            found.append(Block(rel, start + 1, lang, "\n".join(lines[start + 1 : j]), marked))
            i = j
        i += 1
    return found


def runnable_blocks() -> list[Block]:
    return [b for p in pages() for b in blocks(p) if b.runnable]
