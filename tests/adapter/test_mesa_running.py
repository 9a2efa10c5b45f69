"""A Mesa model that sets its own `running = False` stops the reference there, without a
`finished()`; `--settle` then plays the treatment on to that rest, so the settled lift can
differ from the lift at the horizon."""

from __future__ import annotations

import mesa
from pydantic import BaseModel, ConfigDict

from mam_bench.adapter import MesaWorld
from mam_bench.runner import PairSpec, prepare, run_pair
from mam_bench.scoring import Scoring


def active_share(model: mesa.Model) -> float:
    return sum(a.active for a in model.agents) / len(model.agents)


class Spark(mesa.Agent):
    def __init__(self, model: mesa.Model):
        super().__init__(model)
        self.active = True

    def step(self) -> None:
        if self.active and self.random.random() < 0.3:
            self.active = False


class Fading(mesa.Model):
    """Every active agent goes out with probability 0.3 a round; the model stops itself, the
    Mesa way, once none is left."""

    def __init__(self, n: int = 12, seed: int | None = None):
        super().__init__(seed=seed)
        Spark.create_agents(self, n)

    def step(self) -> None:
        self.agents.shuffle_do("step")
        if not any(a.active for a in self.agents):
            self.running = False


class Keep(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    active: bool | None = None  # None: leave the agent as it is


class FadingWorld(MesaWorld):
    name = "fading"
    model_class = Fading
    rounds = 3
    max_rounds = 200
    Action = Keep
    scoring = Scoring(metric="active", objectives={"keep": +1})

    def apply(self, agent: Spark, action: Keep) -> str | None:
        if action.active is not None:
            agent.active = action.active
        return None

    def outcome(self) -> dict[str, float]:
        return {"active": active_share(self.model)}


def _pair(policy: str, settle: bool) -> dict:
    spec = PairSpec.build(world="fading", seed=5, controller=policy, influence=4, settle=settle)
    return run_pair(spec, None, prep=prepare(spec, FadingWorld))


def test_the_reference_stops_where_the_model_sets_running_false() -> None:
    ref = _pair("rule", settle=False)["reference"]
    assert ref["status"] == "stopped"
    assert 3 < ref["rounds"] < 200  # past the horizon, well before the cap
    assert ref["final"]["active"] == 0.0


def test_settling_plays_on_to_the_models_own_stop_and_the_settled_lift_differs() -> None:
    result = _pair("stay", settle=True)
    # at the horizon the idle influence agents are still active while ordinary ones went out
    assert result["lift"] > 0
    settled = result["settled"]
    assert settled["status"] == "stopped" and 3 < settled["rounds"] < 200
    assert settled["final"]["active"] == 0.0
    assert settled["lift"] == 0.0 != result["lift"]


def test_rule_settles_to_zero_lift_at_the_same_stop() -> None:
    result = _pair("rule", settle=True)
    assert result["lift"] == 0.0 and result["settled"]["lift"] == 0.0
    assert result["settled"]["rounds"] == result["reference"]["rounds"]
