"""The social-media world: opinions on a follower network, after Sasahara et al.'s echo-chamber model.

Its Mesa model and users' rule live in `model.py`, the steerable declaration in `world.py`."""
