"""The supply-chain world: the Beer Distribution Game's four echelons, many firms per tier.

Its Mesa model lives in `model.py`, the steerable declaration in `world.py`, the heuristics in
`heuristic.py`."""
