"""A world's scale (grid side, agent count) is bounded by its parameter model, for
every registered world and for a user's own Mesa model, so `size=1000` is `error: param.size` (exit 2)
before anything is written instead of a MemoryError or a run that never ends."""

from __future__ import annotations

import mesa
import pytest
from pydantic import Field

from mam_bench.adapter import params_from_signature
from mam_bench.cli import main
from mam_bench.errors import ConfigError
from mam_bench.params import SCALE_LIMITS, WorldParams
from mam_bench.registry import get_world, world_names


def upper_bound(params_cls: type[WorldParams], name: str) -> int:
    """The field's own `le`, else the generic limit (what the validator enforces)."""
    own = [m.le for m in params_cls.model_fields[name].metadata if hasattr(m, "le")]
    return own[0] if own else SCALE_LIMITS[name]


SCALE_FIELDS = [
    (world, name)
    for world in world_names()
    for name, field in get_world(world).Params.model_fields.items()
    if name in SCALE_LIMITS and field.annotation is int
]


def test_every_scale_field_of_the_built_in_worlds_is_covered():
    worlds = {w for w, _ in SCALE_FIELDS}
    assert {"schelling", "boltzmann", "voter", "civil_violence", "pursuit", "foraging"} <= worlds


@pytest.mark.parametrize(("world", "name"), SCALE_FIELDS, ids=[f"{w}.{n}" for w, n in SCALE_FIELDS])
def test_one_above_the_bound_is_a_named_error_before_any_write(world, name, tmp_path, capsys):
    top = upper_bound(get_world(world).Params, name)
    out = tmp_path / "r"
    assert main(["run", world, "--param", f"{name}={top + 1}", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: param.{name}: ") and str(top) in err, err
    assert not out.exists()


class Grid(mesa.Model):
    """A user's model: the scale parameters come only from its signature."""

    def __init__(self, width: int = 10, n_agents: int = 5, speed: int = 3, seed: int | None = None):
        super().__init__(seed=seed)


def test_a_user_model_gets_the_bound_from_its_signature():
    params = params_from_signature(Grid)
    assert params.from_strings({"width": "200", "n_agents": "10000", "speed": "99999"}).width == 200
    for name, value in (("width", "201"), ("n_agents", "10001")):
        with pytest.raises(ConfigError) as err:
            params.from_strings({name: value})
        assert err.value.field == f"param.{name}"


class Wide(WorldParams):
    size: int = Field(10, ge=1, le=500)


def test_a_field_with_its_own_upper_bound_keeps_it():
    assert Wide.from_strings({"size": "500"}).size == 500
    with pytest.raises(ConfigError):
        Wide.from_strings({"size": "501"})
