"""The pilot's Civil Violence cascade: citizens with private preferences, police who move and then
arrest an adjacent active citizen, a citizen phase and a police phase per step on frozen boards.

Its rule lives in `model.py`, its parameters in `params.py`, its streams in `draws.py`."""
