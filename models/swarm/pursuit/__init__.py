"""SwarmBench pursuit task as a steerable world."""
