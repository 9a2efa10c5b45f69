"""The transport world's one registration (entry point `mam_bench.worlds`: transport); the heuristic,
prompts and renderer are the swarm engine's, shared by its five tasks."""

from mam_bench.models.swarm.registration import swarm_task

registration = swarm_task("transport", "TransportWorld")
