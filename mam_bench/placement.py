"""Which agents a run swaps for influence agents, and how they were picked, in one printed line:
a default that quietly takes a model's index cases changes what a lift means."""

from __future__ import annotations

from typing import Any

from mam_bench.world import SteerableWorld


def id_ranges(ids: list[int] | tuple[int, ...]) -> str:
    """`0-7, 150-157` for runs of consecutive ids."""
    parts: list[str] = []
    ordered = sorted(ids)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(parts) or "none"


def default_rule(world_cls: type[SteerableWorld]) -> str:
    """The world's own words for its default placement."""
    described = getattr(world_cls, "placement_text", None)
    if described is not None:
        return described()
    if world_cls._default_influence_ids is SteerableWorld._default_influence_ids:
        return "the lowest actor ids"
    doc = (world_cls._default_influence_ids.__doc__ or "the world's default").strip()
    return doc.split("(")[0].split(".")[0].strip().lower()


def placement_line(prep: Any) -> str:
    """`influence ids 0-7, 150-157 (world default for 16: half the lowest ids of each group)`."""
    ids, spec = prep.influence_ids, prep.spec
    if spec.influence_ids is not None:
        how = "named with --influence-ids"
    else:
        asked = f"--influence {spec.influence}" if spec.influence is not None else str(len(ids))
        how = f"world default for {asked}: {default_rule(prep.world_cls)}"
    return f"influence ids {id_ranges(ids)} ({how})"
