"""The Schelling world is an ordinary Mesa model: agents, DataCollector, batch_run."""

from __future__ import annotations

from mam_bench.models.schelling.landscape import reference_outcome
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.models.schelling.params import SchellingParams
from mesa.batchrunner import batch_run


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


def test_batch_run_gives_the_runner_reference():
    rows = batch_run(
        SchellingWorld,
        parameters={"seed": [3, 22], "threshold": "3/4"},
        iterations=1,
        max_steps=500,
        number_processes=1,
        data_collection_period=-1,
        display_progress=False,
    )
    for row in rows:
        expected = reference_outcome(SchellingParams(threshold="3/4"), row["seed"])
        assert row["Step"] == expected["rounds"]
