"""The world contract page lists exactly the names the code requires and the capabilities it offers,
so the page a user reads before writing a world cannot drift from `world.REQUIRED` and
`mam_bench.capabilities`."""

import inspect
import re
from typing import Protocol

from mam_bench import capabilities
from mam_bench.world import REQUIRED
from tests.docs.markdown_blocks import ROOT

PAGE = ROOT / "docs" / "world-contract.md"


def first_column(section: str) -> list[str]:
    """The backticked names in the first column of the table under the page's `## section`."""
    text = PAGE.read_text()
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in body.splitlines() if line.startswith("| `")]
    return [re.match(r"\| `(\w+)`", row).group(1) for row in rows]


def test_required_names_are_the_codes() -> None:
    listed = first_column("Required names")
    assert len(listed) == len(set(listed))
    assert set(listed) == set(REQUIRED)


def test_every_capability_is_listed() -> None:
    offered = {
        name
        for name, obj in vars(capabilities).items()
        if inspect.isclass(obj) and Protocol in obj.__mro__ and obj.__module__ == capabilities.__name__
    }
    assert len(offered) >= 10  # the module's protocols were found at all
    assert set(first_column("Optional capabilities")) == offered
