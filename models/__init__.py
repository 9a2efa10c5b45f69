"""The worlds: Schelling, the five SwarmBench tasks and the crafting economy."""
