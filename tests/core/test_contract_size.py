"""The world contract stays narrow: `SteerableWorld`'s required names are at most 12, each is a
bare declaration on the base class (no default to forget to override), and the guide's table
lists exactly them. `python -m tests.core.test_contract_size` prints the figures."""

from __future__ import annotations

import re
from pathlib import Path

import mesa

from mam_bench.world import REQUIRED, SteerableWorld

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "steer-your-own-model.md"


def public_names() -> list[str]:
    """Every public name a world inherits from SteerableWorld (class level, below mesa.Model,
    plus the attributes its __init__ sets), Mesa's own left out."""
    mesa_names = {n for n in dir(mesa.Model) if not n.startswith("_")}
    names: set[str] = set()
    for klass in SteerableWorld.__mro__:
        if issubclass(klass, SteerableWorld):
            names |= set(vars(klass)) | set(vars(klass).get("__annotations__", {}))
    source = Path(SteerableWorld.__init__.__code__.co_filename).read_text()
    init = source[source.index("    def __init__(") : source.index("    @classmethod\n    def metric_for")]
    names |= set(re.findall(r"self\.([a-z][a-z0-9_]*)\s*(?::[^=\n]*)?=", init))
    return sorted(n for n in names if not n.startswith("_") and n not in mesa_names)


def guide_table() -> list[str]:
    """The names in the guide's table of required names (first column, call parentheses dropped)."""
    text = GUIDE.read_text()
    table = text[text.index("| name | type | why |") :].split("\n\n")[0]
    return [re.sub(r"\(.*", "", row.split("|")[1].strip().strip("`")) for row in table.splitlines()[2:]]


def test_the_required_surface_is_small_and_bare_on_the_base_class() -> None:
    assert len(REQUIRED) <= 12
    assert set(REQUIRED) <= set(public_names())
    for name in REQUIRED:
        value = vars(SteerableWorld).get(name)
        if value is None:  # a class attribute: annotated, never given a default
            assert name in SteerableWorld.__annotations__, name
            assert not hasattr(SteerableWorld, name), name
        else:  # a method: abstract
            assert getattr(getattr(value, "__func__", value), "__isabstractmethod__", False), name


def test_the_guide_lists_exactly_the_required_names() -> None:
    assert guide_table() == list(REQUIRED)


if __name__ == "__main__":
    names = public_names()
    print(f"{len(names)} public names: {' '.join(names)}")
    print(f"{len(REQUIRED)} required: {' '.join(REQUIRED)}")
