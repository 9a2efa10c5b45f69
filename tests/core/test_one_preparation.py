"""One preparation: `mam-bench run` builds each of its worlds once (the reference that chose its
influence agents, the treatment, and one treatment per baseline) and its controller once."""

from __future__ import annotations

from collections import Counter

from mam_bench.cli import main
from mam_bench.models.schelling.heuristic import SchellingHeuristic
from mam_bench.models.schelling.model import SchellingWorld


def test_run_builds_each_world_and_the_controller_once(tmp_path, monkeypatch, capsys) -> None:
    worlds: Counter[str] = Counter()
    controllers: list[SchellingHeuristic] = []
    world_init, controller_init = SchellingWorld.__init__, SchellingHeuristic.__init__

    def counted_world(self, *args, **kwargs):
        world_init(self, *args, **kwargs)
        worlds[f"{self.run.role} influence={len(self.run.influence_ids)} masked={len(self.run.mask_ids)}"] += 1

    def counted_controller(self, *args, **kwargs):
        controller_init(self, *args, **kwargs)
        controllers.append(self)

    monkeypatch.setattr(SchellingWorld, "__init__", counted_world)
    monkeypatch.setattr(SchellingHeuristic, "__init__", counted_controller)
    code = main(["run", "schelling", "--seed", "22", "--policy", "heuristic", "--out", str(tmp_path / "run")])
    assert code == 0, capsys.readouterr().err
    # the reference; the treatment, then stay's and mimic's treatments against the same reference
    assert worlds == {"reference influence=0 masked=16": 1, "treatment influence=16 masked=16": 3}
    assert len(controllers) == 1


def test_an_experiment_prepares_each_case_once_in_the_parent(tmp_path, monkeypatch, capsys) -> None:
    """A one-case, two-seed suite with its baselines: the parent builds the case's reference and
    treatment once (the checks of the case, its baselines and its controller share them); the pairs
    build theirs in the workers."""
    from mam_bench import runner
    from mam_bench.world import SteerableWorld

    monkeypatch.setattr(runner, "_CHECKED", type(runner._CHECKED)())  # as in a fresh process: nothing prepared
    built: list[str] = []
    world_init = SteerableWorld.__init__

    def counted(self, *args, **kwargs):
        world_init(self, *args, **kwargs)
        built.append(type(self).__name__)

    monkeypatch.setattr(SteerableWorld, "__init__", counted)
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "name: once\nseeds: 2\ncases:\n  - {world: schelling, controller: heuristic, objective: integrate}\n"
    )
    code = main(["experiment", str(suite), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert code == 0, capsys.readouterr().err
    assert built == ["SchellingWorld", "SchellingWorld"]
