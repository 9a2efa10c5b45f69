"""The one table between AgentWorld's names and this world's: items, skills, mobs. AgentWorld's
names are the user-facing ones (a task file, its verifier and the trajectory use them). An item
is ours under its AgentWorld key unless RENAMED says otherwise; AgentWorld's own items, recipes,
nodes and mobs are rows of data/agentworld.yaml. A name neither has is a mechanic this world does
not have: a task that needs it in an agent's kit is refused naming it."""

from __future__ import annotations

from mam_bench.models.crafting.catalog import catalog

#: AgentWorld item key -> this world's item, where the two names differ
RENAMED = {
    "ironore": "iron_ore",
    "copperore": "copper_ore",
    "ironbar": "iron_bar",
    "copperbar": "copper_bar",
    "fishingpole": "fishing_rod",
    "fishingrod": "fishing_rod",
    "leatherarmor": "armor",
}
#: worn gear that changes nothing in AgentWorld's verifiers or recipes and has no counterpart here:
#: listed by `--check` as not carried over, never dropped unsaid
WORN_ONLY = frozenset({"leatherboots", "leatherhelmet", "leathergloves", "leatherlegs"})
#: AgentWorld skill -> this world's skill and the role whose work it is
SKILLS = {
    "lumberjacking": ("lumberjacking", "lumberjack"),
    "mining": ("mining", "miner"),
    "smithing": ("smithing", "smith"),
    "smelting": ("smithing", "smelter"),
    "fletching": ("fletching", "woodworker"),
    "crafting": ("crafting", "crafter"),
    "foraging": ("foraging", "forager"),
    "fishing": ("fishing", "fisher"),
    "cooking": ("cooking", "cook"),
    "strength": ("strength", "fighter"),
    "accuracy": ("strength", "fighter"),
    "archery": ("strength", "fighter"),
}
#: AgentWorld skills that only set combat, health or movement numbers this world does not model
PASSIVE_SKILLS = frozenset({"health", "defense", "magic", "hitpoints", "swimming"})

OURS = {ours_: theirs_ for theirs_, ours_ in reversed(list(RENAMED.items()))}


def ours(key: str) -> str | None:
    """This world's item for an AgentWorld item key (None: no such item here)."""
    item = RENAMED.get(key.lower(), key.lower())
    return item if item in catalog("agentworld").items else None


def theirs(item: str) -> str:
    """This world's item under AgentWorld's name (the first name the table gives it)."""
    return OURS.get(item, item)


def mob_kinds() -> set[str]:
    """The mob kinds an AgentWorld task can fight here (ours and data/agentworld.yaml's)."""
    return {m.kind for m in catalog("agentworld").mobs.values()}
