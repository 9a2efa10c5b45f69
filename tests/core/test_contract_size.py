"""The world contract stays narrow: `SteerableWorld`'s required names are at most 8, each is a
bare declaration on the base class (no default to forget to override), the guide's table lists
exactly them, and the surface counted from the base class's source is what a real world exposes
(nothing added behind the reader's back). The total counts those names and every name of an optional
capability that lives on the world (`mam_bench.capabilities.ON_WORLD`; the action space's are the
Action's). `python -m tests.core.test_contract_size` prints the figures."""

from __future__ import annotations

import re
from pathlib import Path

import mesa
from pydantic import BaseModel

from mam_bench.capabilities import ON_WORLD, members
from mam_bench.params import WorldParams
from mam_bench.scoring import Scoring
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
    init = source[source.index("    def __init__(") : source.index("    def _masked(self")]
    names |= set(re.findall(r"self\.([a-z][a-z0-9_]*)\s*(?::[^=\n]*)?=", init))
    return sorted(n for n in names if not n.startswith("_") and n not in mesa_names)


#: the bounds this test holds: 8 required names, 21 in all (the 21st, `rule_answer_kept`, says
#: whether a planner's rollouts must ask the rule as the live run does; it was 20 before it)
MAX_REQUIRED = 8
MAX_TOTAL = 21


def capability_names() -> list[str]:
    """Every name an optional capability may add to a world (its action space's are on its Action)."""
    return sorted({n for c in ON_WORLD for n in members(c)})


def total() -> list[str]:
    """The whole public surface of a world: what it inherits or is given, and its capabilities' names."""
    return sorted({*public_names(), *capability_names()})


class Smallest(SteerableWorld):
    """A world that defines the required names and nothing else."""

    name = "smallest"
    Params = WorldParams
    Action = BaseModel
    scoring = Scoring(metric="m", objectives={"up": +1})

    def actor_ids(self) -> list[int]:
        return [0]

    def observe(self, actor_id: int) -> str:
        return ""

    def resolve_round(self, decisions) -> list:
        return []

    def metrics(self) -> dict[str, float]:
        return {"m": 0.0}


def exposed_names() -> list[str]:
    """Every public name a built world answers to, Mesa's own left out: what a user really meets."""
    mesa_names = {n for n in dir(mesa.Model(rng=0)) if not n.startswith("_")}
    return sorted(n for n in dir(Smallest(seed=0)) if not n.startswith("_") and n not in mesa_names)


def guide_table() -> list[str]:
    """The names in the guide's table of required names (first column, call parentheses dropped)."""
    text = GUIDE.read_text()
    table = text[text.index("| name | type | why |") :].split("\n\n")[0]
    return [re.sub(r"\(.*", "", row.split("|")[1].strip().strip("`")) for row in table.splitlines()[2:]]


def test_the_required_surface_is_small_and_bare_on_the_base_class() -> None:
    assert len(REQUIRED) <= MAX_REQUIRED
    assert set(REQUIRED) <= set(public_names())
    for name in REQUIRED:
        value = vars(SteerableWorld).get(name)
        if value is None:  # a class attribute: annotated, never given a default
            assert name in SteerableWorld.__annotations__, name
            assert not hasattr(SteerableWorld, name), name
        else:  # a method: abstract
            assert getattr(getattr(value, "__func__", value), "__isabstractmethod__", False), name


def test_the_counted_surface_is_what_a_world_exposes() -> None:
    assert exposed_names() == public_names()


def test_the_whole_surface_with_capabilities_is_bounded() -> None:
    assert set(capability_names()) >= {"rule_action"}  # the capabilities were found at all
    assert not set(capability_names()) & {"random_action", "legal_actions", "null_action"}  # the Action's
    assert len(total()) <= MAX_TOTAL


def test_the_guide_lists_exactly_the_required_names() -> None:
    assert guide_table() == list(REQUIRED)


if __name__ == "__main__":
    names = public_names()
    print(f"{len(names)} public names: {' '.join(names)}")
    print(f"{len(exposed_names())} exposed by a built world")
    print(f"{len(REQUIRED)} required: {' '.join(REQUIRED)}")
    caps = capability_names()
    print(f"{len(caps)} capability names on the world: {' '.join(caps)}")
    print(f"{len(total())} in all (public names and capability names)")
