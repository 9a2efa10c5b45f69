"""SwarmBench synchronization task as a steerable world."""
