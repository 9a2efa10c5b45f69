"""SwarmBench flocking task as a steerable world."""
