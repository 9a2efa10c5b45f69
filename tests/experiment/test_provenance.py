"""Acceptance 8: result.json and the experiment folder record what produced them, and resuming an
experiment whose recorded provenance differs stops unless --allow-mixed (mixed pairs are counted)."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from mam_bench.provenance import (
    COMPARED,
    classes_source_hash,
    environment,
    files_hash,
    git_state,
    heuristic_source_hash,
    world_data_hash,
    world_files,
)
from mam_bench.registry import get_world, registrations
from tests.experiment.conftest import cli

SUITE = {
    "name": "prov",
    "seeds": 2,
    "baselines": [],
    "cases": [{"world": "schelling", "params": {"size": 10, "max_rounds": 40}, "controller": "random", "influence": 2}],
}
#: sha256 of no bytes at all: what world_data was for a world without data files
EMPTY = hashlib.sha256(b"").hexdigest()


def test_result_json_has_the_provenance_block(tmp_path) -> None:
    proc = cli("run", "schelling", "--seed", "1", "--rounds", "2", "--out", str(tmp_path / "r"))
    assert proc.returncode == 0, proc.stderr
    block = json.loads((tmp_path / "r" / "result.json").read_text())["provenance"]
    for key in (
        "package",
        "git_commit",
        "git_dirty",
        "python",
        "mesa",
        "numpy",
        "langchain_core",
        "scipy",
        "pandas",
        "pyarrow",
        "numba",
        "world_data",
        "controller_source",
        "heuristic_source",
        "provider_models",
    ):
        assert key in block
    assert block["package"] == environment()["package"] and block["mesa"].startswith("3.")
    assert len(block["world_data"]) == 64 and block["world_data"] != EMPTY
    import pandas
    import scipy

    assert block["scipy"] == scipy.__version__ and block["pandas"] == pandas.__version__


@pytest.mark.parametrize("world", sorted(registrations()))
def test_world_data_hashes_the_world_sources_and_never_nothing(world: str) -> None:
    world_cls = get_world(world)
    folder, files = world_files(world_cls)
    assert Path(inspect.getsourcefile(world_cls)).resolve() in files
    heuristic = registrations()[world].heuristic
    if heuristic:
        module = importlib.util.find_spec(heuristic.partition(":")[0])
        assert Path(module.origin).resolve() in files and heuristic_source_hash(world_cls) not in (None, EMPTY)
    assert world_data_hash(world_cls) == files_hash(files, folder) != EMPTY


def test_world_data_changes_with_a_source_or_data_file(tmp_path, monkeypatch) -> None:
    pkg = tmp_path / "prov_world_pkg"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text("class World:\n    name = 'prov-test-world'\n")
    (pkg / "data" / "table.csv").write_text("a,b\n1,2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    world_cls = importlib.import_module("prov_world_pkg.model").World
    first = world_data_hash(world_cls)
    (pkg / "NOTES.md").write_text("not code, not data")
    assert world_data_hash(world_cls) == first
    (pkg / "data" / "table.csv").write_text("a,b\n1,3\n")
    second = world_data_hash(world_cls)
    assert second != first
    (pkg / "model.py").write_text("class World:\n    name = 'prov-test-world'  # edited\n")
    assert world_data_hash(world_cls) not in (first, second)


def test_controller_sources_identify_the_controller() -> None:
    from mam_bench.steering.random_policy import RandomController
    from mam_bench.steering.stay import StayController

    rnd, stay = classes_source_hash(RandomController), classes_source_hash(StayController)
    assert rnd is not None and stay is not None and rnd != stay


def test_an_untracked_file_makes_the_checkout_dirty(tmp_path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "a.py").write_text("x = 1\n")
    git("add", "a.py")
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "one")
    assert git_state(tmp_path)["git_dirty"] is False
    (tmp_path / "new_module.py").write_text("y = 2\n")
    assert git_state(tmp_path)["git_dirty"] is True


def test_resume_refuses_a_different_version_unless_mixing_is_allowed(tmp_path, write_suite) -> None:
    suite, out = write_suite(SUITE), tmp_path / "exp"
    assert cli("experiment", str(suite), "--out", str(out)).returncode == 0
    recorded = json.loads((out / "provenance.json").read_text())
    assert set(COMPARED) <= set(recorded)
    recorded["package"] = "0.0.0-older"
    (out / "provenance.json").write_text(json.dumps(recorded))
    table = out / "table.csv"
    frame = pd.read_csv(table, dtype=str, keep_default_na=False)
    frame.loc[0, "provenance_id"] = "older0000000"  # one pair from the older code
    frame.to_csv(table, index=False)
    before = table.read_text()

    proc = cli("experiment", str(suite), "--out", str(out))
    assert proc.returncode == 2
    assert "error: resume:" in proc.stderr and "package '0.0.0-older'" in proc.stderr and "--allow-mixed" in proc.stderr
    assert table.read_text() == before  # nothing touched

    proc = cli("experiment", str(suite), "--out", str(out), "--allow-mixed")
    assert proc.returncode == 0, proc.stderr
    summary = pd.read_csv(out / "summary.csv")
    assert summary[summary["test"] == "lift"]["mixed"].iloc[0] == 1
    assert json.loads((out / "provenance.json").read_text())["package"] == environment()["package"]


def test_the_model_name_the_provider_returned_is_recorded(tmp_path, monkeypatch) -> None:
    from mam_bench.runner import PairSpec, run_pair
    from tests.llm.scripted import server_reply
    from tests.support.openai_server import OpenAIServer

    monkeypatch.setenv("MAM_TEST_PROV_KEY", "sk-test-not-a-secret")
    with OpenAIServer(reply=server_reply) as srv:
        opts = {
            "model": "openai:scripted",
            "base_url": srv.base_url,
            "api_key_env": "MAM_TEST_PROV_KEY",
            "cache": str(tmp_path / "cache.sqlite"),
        }
        spec = PairSpec.build(
            world="schelling", seed=22, controller="llm", rounds=1, influence=2, controller_options=opts
        )
        first = run_pair(spec, tmp_path / "a")
        again = run_pair(spec, tmp_path / "b")  # answered from the cache: the returned name is kept there
    assert first["provenance"]["provider_models"] == ["scripted"]
    assert again["provenance"]["provider_models"] == ["scripted"]
