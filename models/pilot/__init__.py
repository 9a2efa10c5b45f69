"""The pilot's (JoeHelbing/mam-bench v0.2.x) two ordinary worlds written again from its code,
importing nothing of ours (`pilot_worlds.py`), and the check that steps them beside our Schelling
(`rule=pilot_v2`) and Civil Violence cascade references (`parity.py`, `mam-bench parity pilot`)."""
