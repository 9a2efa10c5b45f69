"""The one table between AgentWorld's names and this world's: items, skills, mobs. AgentWorld's
names are the user-facing ones (a task file, its verifier and the trajectory use them); a name
missing here is a mechanic this world does not have, and a task that needs it is refused."""

from __future__ import annotations

#: AgentWorld item key -> this world's item
ITEMS = {
    "logs": "logs",
    "ironore": "iron_ore",
    "coal": "coal",
    "copperore": "copper_ore",
    "clay": "clay",
    "flax": "flax",
    "wheat": "wheat",
    "herbs": "herbs",
    "fish": "fish",
    "bead": "bead",
    "flask": "flask",
    "apple": "apple",
    "coin": "coin",
    "hide": "hide",
    "stick": "stick",
    "plank": "plank",
    "ironbar": "iron_bar",
    "copperbar": "copper_bar",
    "brick": "brick",
    "nails": "nails",
    "thread": "thread",
    "rope": "rope",
    "flour": "flour",
    "bread": "bread",
    "stew": "stew",
    "potion": "potion",
    "staff": "staff",
    "heavysword": "heavysword",
    "shield": "shield",
    "goldring": "ring",
    "lantern": "lantern",
    "bow": "bow",
    "woodenbow": "bow",
    "arrow": "arrow",
    "axe": "axe",
    "pickaxe": "pickaxe",
    "fishingpole": "fishing_rod",
    "leatherarmor": "armor",
    "amulet": "amulet",
    "mushroom": "mushroom",
    "crystal": "crystal",
}
#: worn gear that changes nothing in AgentWorld's verifiers or recipes and has no counterpart here:
#: listed by `--check` as not carried over, never dropped unsaid
WORN_ONLY = frozenset({"leatherboots", "leatherhelmet", "leathergloves", "leatherlegs"})
#: AgentWorld skill -> this world's skill and the role whose work it is
SKILLS = {
    "lumberjacking": ("lumberjacking", "lumberjack"),
    "mining": ("mining", "miner"),
    "smithing": ("smithing", "smith"),
    "fletching": ("fletching", "woodworker"),
    "crafting": ("crafting", "crafter"),
    "foraging": ("foraging", "forager"),
    "fishing": ("fishing", "fisher"),
    "cooking": ("cooking", "cook"),
    "strength": ("strength", "fighter"),
    "accuracy": ("strength", "fighter"),
    "archery": ("strength", "fighter"),
}
#: AgentWorld skills that only set combat or health numbers this world does not model
PASSIVE_SKILLS = frozenset({"health", "defense", "magic", "hitpoints"})
#: AgentWorld mob name -> this world's mob kind
MOBS = {"wolf": "wolf", "goblin": "goblin", "troll": "troll"}

OURS = {ours: theirs for theirs, ours in reversed(list(ITEMS.items()))}


def theirs(item: str) -> str:
    """This world's item under AgentWorld's name (the first name the table gives it)."""
    return OURS.get(item, item)
