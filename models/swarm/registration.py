"""The five swarm worlds' registrations (entry points `mam_bench.worlds`: one per task)."""

from mam_bench.registry import WorldRegistration


def _swarm(task: str, cls: str) -> WorldRegistration:
    return WorldRegistration(
        world=f"mam_bench.models.swarm.{task}.model:{cls}",
        heuristic="mam_bench.steering.heuristics.swarm:make_swarm_heuristic",
        prompts="mam_bench.steering.llm.prompts.swarm:SwarmPrompts",
        renderer="mam_bench.dashboards.worlds.swarm",
    )


pursuit = _swarm("pursuit", "PursuitWorld")
synchronization = _swarm("synchronization", "SynchronizationWorld")
foraging = _swarm("foraging", "ForagingWorld")
flocking = _swarm("flocking", "FlockingWorld")
transport = _swarm("transport", "TransportWorld")
