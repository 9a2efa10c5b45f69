"""SwarmBench foraging task as a steerable world."""
