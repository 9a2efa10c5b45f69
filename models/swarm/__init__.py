"""SwarmBench worlds: one shared grid environment (physics, views, messages) and five tasks."""
