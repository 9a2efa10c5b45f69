"""The boltzmann world (a Mesa example).

Its model, rule and heuristic live in `model.py`."""
