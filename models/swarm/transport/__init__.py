"""SwarmBench transport task as a steerable world."""
