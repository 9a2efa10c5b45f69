"""Influence agents in the open: every run says which ids it swapped and how they were picked;
a user world may declare its default placement."""

import subprocess
import sys

import pytest

from mam_bench.models.voter.model import VoterWorld
from mam_bench.placement import id_ranges, placement_line
from mam_bench.registry import get_world, world_names
from mam_bench.runner import PairSpec, prepare


class RandomPlaced(VoterWorld):
    placement = "random"


class NamedPlaced(VoterWorld):
    placement = (40, 7, 12)


def test_id_ranges() -> None:
    assert id_ranges([157, 0, 1, 2, 150, 151, 9]) == "0-2, 9, 150-151, 157"


@pytest.mark.parametrize("world", sorted(world_names()))
def test_every_world_names_its_ids_and_how(world: str) -> None:
    prep = prepare(PairSpec.build(world=world, seed=0, controller="rule"))
    line = placement_line(prep)
    assert line.startswith(f"influence ids {id_ranges(prep.influence_ids)} (world default for ")
    assert line.rstrip(")").split(": ", 1)[1]  # says how


def test_named_ids_are_said_to_be_named() -> None:
    prep = prepare(PairSpec.build(world="voter", seed=0, controller="rule", influence_ids=(5, 6)))
    assert placement_line(prep) == "influence ids 5-6 (named with --influence-ids)"


def test_a_world_may_declare_a_random_placement() -> None:
    drawn = [tuple(RandomPlaced(seed=s)._default_influence_ids(3)) for s in range(4)]
    assert len(set(drawn)) > 1  # differs by seed
    assert drawn[0] == tuple(RandomPlaced(seed=0)._default_influence_ids(3))  # addressed: reproducible
    prep = prepare(PairSpec.build(world="voter", seed=0, controller="rule", influence=3), RandomPlaced)
    assert prep.influence_ids == drawn[0]
    assert "drawn from the stream" in placement_line(prep)


def test_a_world_may_name_its_default_ids() -> None:
    world = NamedPlaced(seed=0)
    assert world._default_influence_ids(2) == [40, 7]
    assert world._default_influence_ids(4) == [40, 7, 12, min(i for i in world.actor_ids() if i not in (40, 7, 12))]


def test_run_prints_the_ids(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mam_bench", "run", "voter", "--seed", "4", "--influence", "3", "--out", "o"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "influence ids 1-3 (world default for --influence 3: the lowest actor ids)" in done.stdout.splitlines()
    assert get_world("voter").placement == "lowest"
