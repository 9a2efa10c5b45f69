"""Acceptance 8: result.json and the experiment folder record what produced them, and resuming an
experiment whose recorded provenance differs stops unless --allow-mixed (mixed pairs are counted)."""

from __future__ import annotations

import json

import pandas as pd

from mam_bench.provenance import COMPARED, environment
from tests.experiment.conftest import cli

SUITE = {
    "name": "prov",
    "seeds": 2,
    "baselines": [],
    "cases": [{"world": "schelling", "params": {"size": 10, "max_rounds": 40}, "policy": "random", "influence": 2}],
}


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
        "world_data",
        "provider_models",
    ):
        assert key in block
    assert block["package"] == environment()["package"] and block["mesa"].startswith("3.")
    assert len(block["world_data"]) == 64


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
        spec = PairSpec.build(world="schelling", seed=22, policy="llm", rounds=1, influence=2, controller_options=opts)
        first = run_pair(spec, tmp_path / "a")
        again = run_pair(spec, tmp_path / "b")  # answered from the cache: the returned name is kept there
    assert first["provenance"]["provider_models"] == ["scripted"]
    assert again["provenance"]["provider_models"] == ["scripted"]
