"""The swarm worlds' array paths, held to the agents' own rule by tests/swarm/test_agent_reference.py
(`SwarmWorld.fast_paths`: False plays every agent's own look, the reference)."""
