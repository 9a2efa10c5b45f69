"""Schelling's fast paths: the same rule as the residents' own `decide`/`apply`, for speed.

`array_rule` plays the world's wave on numpy arrays (the default, `SchellingWorld.fast_path`),
`compiled_wave` compiled, and `pilot_wave` the pilot's current rule (rule=pilot_v2) compiled;
`kernel` plays whole reference runs compiled with numba for landscapes, replaying numpy's
streams through `compiled_streams`. tests/schelling/test_fast_paths.py holds both to the
residents bit for bit on random states.
"""
