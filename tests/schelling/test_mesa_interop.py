"""The Schelling world is an ordinary Mesa model: agents and DataCollector (batch_run: tests/experiment)."""

from __future__ import annotations

from mam_bench.models.schelling.model import SchellingWorld


def test_agents_carry_stable_ids_and_the_datacollector_records():
    world = SchellingWorld(seed=22)
    ids = sorted(a.actor_id for a in world.agents)
    assert ids == list(range(300))
    for _ in range(3):
        world.step()
    frame = world.datacollector.get_model_vars_dataframe()
    assert len(frame) == 4 and {"oeh", "satisfaction"} <= set(frame.columns)
    for agent in world.agents:
        r, c = divmod(int(world.pos[agent.actor_id]), world.size)
        assert agent.cell.coordinate == (r, c)
