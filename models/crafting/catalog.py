"""The static economy read from data/: items, recipes, sites, nodes, stations, roles.

Loaded once and shared; worlds never mutate it (node stocks live in the model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Recipe:
    output: str
    qty: int
    skill: str
    station: str
    inputs: dict[str, int]
    #: the skill level a crafter needs (1: any level above 0)
    level: int = 1


@dataclass(frozen=True)
class NodeSpec:
    node_id: str
    site: str
    resource: str
    skill: str
    tool: str | None
    stock: int
    #: the skill level a harvester needs (1: any level above 0)
    level: int = 1


@dataclass(frozen=True)
class MobSpec:
    mob_id: str
    site: str
    kind: str
    health: int
    damage: int
    loot: str
    loot_qty: int
    respawn: int


@dataclass(frozen=True)
class Role:
    name: str
    skills: dict[str, int]
    makes: tuple[str, ...]
    coordinator: bool = False


@dataclass(frozen=True)
class Catalog:
    items: dict[str, str]
    recipes: dict[str, Recipe]
    sites: dict[str, tuple[int, int]]
    nodes: dict[str, NodeSpec]
    stations: dict[str, str]
    roles: dict[str, Role]
    depth: dict[str, int] = field(default_factory=dict)
    mobs: dict[str, MobSpec] = field(default_factory=dict)
    hidden: dict[str, str] = field(default_factory=dict)  # hidden site -> the known site to explore from

    @property
    def node_order(self) -> tuple[str, ...]:
        """The nodes' stream index: by name, with nodes at hidden sites after the rest, so adding
        an exploration site leaves the draws of every earlier node where they were."""
        return tuple(sorted(self.nodes, key=lambda n: (self.nodes[n].site in self.hidden, n)))

    def kind(self, item: str) -> str:
        return self.items[item]

    def raw_nodes(self, resource: str) -> list[NodeSpec]:
        return [n for n in self.nodes.values() if n.resource == resource]


def meets(skills: dict[str, int], skill: str, level: int = 1) -> bool:
    """Whether skill levels reach what a node or recipe needs (a level of 0 is no skill at all)."""
    return skills.get(skill, 0) >= max(1, level)


def _depth(item: str, recipes: dict[str, Recipe], memo: dict[str, int]) -> int:
    if item not in memo:
        r = recipes.get(item)
        memo[item] = 0 if r is None else 1 + max(_depth(i, recipes, memo) for i in r.inputs)
    return memo[item]


def _rows(doc: dict, key: str) -> dict:
    return dict(doc.get(key) or {})


@lru_cache(maxsize=2)
def catalog(layer: str | None = None) -> Catalog:
    """The economy of items.yaml and world.yaml; with a layer (`data/<layer>.yaml`, as
    "agentworld"), its items, recipes, nodes and mobs over them, for the worlds that play it."""
    items_doc = yaml.safe_load((DATA / "items.yaml").read_text())
    world_doc = yaml.safe_load((DATA / "world.yaml").read_text())
    extra = yaml.safe_load((DATA / f"{layer}.yaml").read_text()) if layer else {}
    items = {**_rows(items_doc, "items"), **_rows(extra, "items")}
    recipes = {
        out: Recipe(out, int(v[0]), str(v[1]), str(v[2]), {k: int(n) for k, n in v[3].items()}, *map(int, v[4:5]))
        for out, v in {**_rows(items_doc, "recipes"), **_rows(extra, "recipes")}.items()
    }
    nodes = {
        nid: NodeSpec(nid, v[0], v[1], v[2], v[3], int(v[4]), *map(int, v[5:6]))
        for nid, v in {**_rows(world_doc, "nodes"), **_rows(extra, "nodes")}.items()
    }
    roles = {
        name: Role(name, dict(v.get("skills") or {}), tuple(v.get("makes") or ()), bool(v.get("coordinator")))
        for name, v in world_doc["roles"].items()
    }
    mobs = {
        mid: MobSpec(mid, v[0], v[1], int(v[2]), int(v[3]), v[4], int(v[5]), int(v[6]))
        for mid, v in {**_rows(world_doc, "mobs"), **_rows(extra, "mobs")}.items()
    }
    memo: dict[str, int] = {}
    depth = {item: _depth(item, recipes, memo) for item in items}
    return Catalog(
        items=items,
        recipes=recipes,
        sites={k: (int(v["x"]), int(v["y"])) for k, v in world_doc["sites"].items()},
        nodes=nodes,
        stations=dict(world_doc["stations"]),
        roles=roles,
        depth=depth,
        mobs=mobs,
        hidden=dict(world_doc.get("hidden") or {}),
    )


def task_catalog(task: Any) -> Catalog:
    """The catalog a task plays in: an AgentWorld task's (agentworld/tasks.py) adds AgentWorld's
    items, recipes, nodes and mobs (data/agentworld.yaml); every other task plays in ours."""
    return catalog("agentworld") if getattr(task, "agentworld", None) else catalog()
