"""SwarmBench's conditions ship as suites that any controller plays."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mam_bench.errors import ConfigError
from mam_bench.experiment.overrides import apply_overrides
from mam_bench.experiment.suite import parse_suite
from mam_bench.models.swarm.prompts import OBJECTIVES, REPRODUCTION_SYSTEM, SwarmPrompts
from mam_bench.protocol import Request
from mam_bench.registry import get_world

SUITES = sorted((Path(__file__).parents[2] / "suites").glob("swarmbench-*.yaml"))


def load(name: str) -> dict:
    return yaml.safe_load(next(p for p in SUITES if p.stem == name).read_text())


def test_every_condition_has_a_suite():
    assert {p.stem for p in SUITES} >= {
        "swarmbench-main",
        "swarmbench-perception",
        "swarmbench-noise",
        "swarmbench-scale",
        "swarmbench-sampling",
        "swarmbench-centralized",
    }


@pytest.mark.parametrize("path", SUITES, ids=lambda p: p.stem)
def test_suite_is_the_swarmbench_protocol_under_any_policy(path):
    data = yaml.safe_load(path.read_text())
    for policy in (None, "heuristic", "random"):
        suite = parse_suite(apply_overrides(data, controller=policy, seeds="0-1")[0] if policy else data)
        for case in suite.cases:
            params = get_world(case.world).Params.from_strings(case.params)
            assert params.board is False, case.name
            assert case.influence == params.agents, case.name  # every agent is an influence agent
            if policy:
                assert case.controller == policy and not set(case.controller_options) & {"temperature", "top_p"}
        if policy:
            assert suite.seed_list() == [0, 1]


def test_main_and_sweeps_hold_the_paper_values():
    main = parse_suite(load("swarmbench-main"))
    assert {c.world for c in main.cases} == {"pursuit", "synchronization", "foraging", "flocking", "transport"}
    assert main.seed_list() == [0, 1, 2, 3, 4]
    per = parse_suite(load("swarmbench-perception"))
    views = {int(c.params.get("view", 5)) for c in per.cases}
    agents = {int(c.params.get("agents", 10)) for c in per.cases}
    assert views == {3, 5, 7} and agents == {8, 10, 12, 16}
    noise = parse_suite(load("swarmbench-noise"))
    noisy = [c for c in noise.cases if c.params.get("noise")]
    assert noisy and all(c.params["noise"] == 0.2 and c.params["delay"] == 4 for c in noisy)
    scale = parse_suite(load("swarmbench-scale"))
    assert {(c.params["size"], c.params["agents"]) for c in scale.cases} == {(15, 20), (15, 30), (20, 20), (20, 30)}


def test_sampling_sweep_keeps_its_options_for_the_llm_and_collapses_without_it():
    data = load("swarmbench-sampling")
    suite = parse_suite(data)
    for world in ("pursuit", "flocking"):
        settings = {
            (c.controller_options["temperature"], c.controller_options["top_p"])
            for c in suite.cases
            if c.world == world
        }
        assert settings == {(0.0, 1.0), (0.5, 1.0), (1.0, 1.0), (1.5, 1.0), (1.0, 0.3), (1.0, 0.7), (1.0, 0.95)}
    played, notes = apply_overrides(data, controller="heuristic")
    assert len(parse_suite(played).cases) == 5 and any("run once" in n for n in notes)
    assert parse_suite(apply_overrides(data, model="fake:echo")[0]).cases[0].controller_options["top_p"] == 1.0


@pytest.mark.parametrize("bad", ["x", "3-1", "1,a"])
def test_bad_seeds_override_is_a_named_error(bad):
    with pytest.raises(ConfigError) as err:
        apply_overrides(load("swarmbench-main"), seeds=bad)
    assert err.value.field == "seeds"


def test_model_override_needs_the_llm():
    with pytest.raises(ConfigError) as err:
        apply_overrides(load("swarmbench-main"), controller="heuristic", model="fake:echo")
    assert err.value.field == "model"


def _request(world_name: str, **params) -> Request:
    cls = get_world(world_name)
    world = cls(cls.Params.from_strings(params), seed=0, influence_ids=tuple(range(int(params.get("agents", 10)))))
    return Request(world=world_name, actor_id=0, round=0, objective="hinder", observation=world.observe(0))


def test_reproduction_mode_prompt_leaves_the_objective_out():
    prompts = SwarmPrompts(get_world("pursuit"), "hinder")
    repro = _request("pursuit", board="false")
    assert repro.observation.upstream_answers
    assert prompts.system(repro) == REPRODUCTION_SYSTEM
    assert OBJECTIVES["hinder"] not in prompts.system(repro) + prompts.user(repro, "decision")
    steered = _request("pursuit", board="true")
    assert OBJECTIVES["hinder"] in prompts.system(steered)


def test_reproduction_prompt_follows_upstreams_sections_in_order():
    prompts = SwarmPrompts(get_world("synchronization"), "help")
    req = _request("synchronization", board="false")
    text = prompts.user(req, "decision")
    heads = [
        "Task description:",
        "Round: 0",
        "Current Step:",
        "Your current observation:",
        "Message you received:",
        "Your action history:",
        "Symbol legend:",
        "Available actions:",
        "Physics rules:",
        "Message rules:",
        "Other rules:",
        "ACTION: [YOUR_ACTION]",
    ]
    where = [text.index(h) for h in heads]
    assert where == sorted(where)
    assert "SWITCH" in text.split("Available actions:")[1] and "MSG: send a message" in text
    own = req.observation.frames[0]
    assert f"{own.row0 + 2:>3}  " in text  # rows led by their global index, as upstream's view
    steered = prompts.user(_request("synchronization", board="true"), "decision")
    assert "Physics rules:" not in steered  # outside reproduction mode our own prompt stays


def test_experiment_overrides_play_the_suite_with_another_policy_and_seeds(tmp_path, capsys):
    import csv

    from mam_bench.cli import main

    suite = tmp_path / "s.yaml"
    suite.write_text(
        "name: t\nseeds: 3\nbaselines: []\ncases:\n"
        "  - {name: a, world: flocking, model: 'fake:x', objective: help, influence: 10,"
        " params: {board: false, rounds: 5}, controller_options: {temperature: 0.5, top_p: 0.9}}\n"
    )
    out = tmp_path / "exp"
    assert main(["experiment", str(suite), "--out", str(out), "--policy", "random", "--seeds", "5-6"]) == 0
    with (out / "table.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert sorted(int(r["seed"]) for r in rows) == [5, 6] and {r["controller"] for r in rows} == {"random"}
    assert "every case played by random" in capsys.readouterr().err
