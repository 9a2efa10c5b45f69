"""A world whose outcome masks through `influence_ids` (empty in the reference) breaks null
steering: `run --policy rule` says so and exits 3, and `check_world` names the round, the metric
with both values, and the agents. The same world masking through `ordinary_agents()` passes."""

from __future__ import annotations

import json
import re

import pytest

from mam_bench import registry
from mam_bench.cli import main
from mam_bench.registry import WorldRegistration
from mam_bench.testing import WorldCheckError, check_world
from tests.adapter.coin_worlds import InfluenceMaskedCoins, MaskedCoins


@pytest.fixture
def registered():
    table = registry.registrations()
    for cls in (MaskedCoins, InfluenceMaskedCoins):
        table[cls.name] = WorldRegistration(world=f"tests.adapter.coin_worlds:{cls.__name__}")
    yield
    for cls in (MaskedCoins, InfluenceMaskedCoins):
        del table[cls.name]


def test_run_rule_on_a_world_that_masks_by_influence_ids_fails(registered, tmp_path, capsys) -> None:
    out = tmp_path / "broken"
    code = main(["run", "influence_masked_coins", "--policy", "rule", "--seed", "1", "--out", str(out)])
    printed = capsys.readouterr()
    lift = json.loads((out / "result.json").read_text())["lift"]
    assert lift != 0
    assert code == 3
    found = re.search(r"null steering broken: lift ([+-][0-9.e+-]+), expected 0; run check_world", printed.err)
    assert found, printed.err
    assert float(found.group(1)) == pytest.approx(lift, abs=1e-4)
    assert "null steering holds" not in printed.out


def test_run_rule_on_a_world_that_masks_by_ordinary_agents_holds(registered, tmp_path, capsys) -> None:
    out = tmp_path / "sound"
    assert main(["run", "masked_coins", "--policy", "rule", "--seed", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert json.loads((out / "result.json").read_text())["lift"] == 0
    assert "reading: null steering holds" in printed.out
    assert "null steering broken" not in printed.err


def test_check_world_names_the_metric_the_agents_and_the_round() -> None:
    with pytest.raises(WorldCheckError) as err:
        check_world(InfluenceMaskedCoins, seeds=(1,))
    message = str(err.value)
    found = re.search(
        r"null steering: round (\d+): metric 'heads' is ([0-9.]+) in the reference, ([0-9.]+) in the treatment; "
        r"every agent's state agrees.*influence agents \(([0-9, ]+)\).*self\.run\.mask_ids",
        message,
    )
    assert found, message
    assert int(found.group(1)) >= 1  # round 0: no coin has flipped yet, both counts are 0
    assert found.group(2) != found.group(3)
    assert found.group(4) == "1, 2"  # the two lowest actor ids (Mesa numbers agents from 1)


def test_check_world_names_the_agent_and_attribute_that_differ() -> None:
    class HeadStartCoins(MaskedCoins):
        """The treatment's setup favours the influence coins: a different start, not the same world."""

        name = "head_start_coins"

        def build_model(self):
            model = super().build_model()
            for agent in model.agents:
                agent.heads = int(agent.unique_id in self.run.influence_ids)
            return model

    with pytest.raises(WorldCheckError) as err:
        check_world(HeadStartCoins, seeds=(1,))
    message = str(err.value)
    assert "round 0: agent 1 (Coin) attribute 'heads' is 0 in the reference, 1 in the treatment" in message
    assert "metric" not in message.split("round 0:")[1].split("\n")[0]  # the ordinary coins' count agrees


def test_the_sound_world_passes_check_world() -> None:
    assert check_world(MaskedCoins, seeds=(0, 1)) == {
        "seeds": 2,
        "checks": 22,
        "capabilities": ["HorizonBasin", "RandomActions"],
    }
