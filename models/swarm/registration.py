"""What the five swarm tasks register alike: each task's own `registration.py` calls this."""

from mam_bench.registry import WorldRegistration


def swarm_task(task: str, cls: str) -> WorldRegistration:
    return WorldRegistration(
        world=f"mam_bench.models.swarm.{task}.model:{cls}",
        heuristic="mam_bench.models.swarm.heuristic:make_swarm_heuristic",
        prompts="mam_bench.models.swarm.prompts:SwarmPrompts",
        renderer="mam_bench.models.swarm.renderer",
        analyses=(("swarm", "mam_bench.models.swarm.analysis.report:analyse"),),
        exports=(("swarmbench", "mam_bench.models.swarm.export:export_swarmbench"),),
    )
