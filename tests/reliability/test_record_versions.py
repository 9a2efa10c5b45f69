"""`controller` has one shape in every record since version 3 (a mapping: the chosen name and the
options), and `read_record`, the one reader, gives that shape for records of versions 1 and 2:
a version-2 run folder resumes, replays and reads as one written today."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.record_schema import RECORD_VERSION, read_record, spec_fields
from mam_bench.runner import PairSpec
from tests.support.cli import cli_in_process

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO / "data" / "benchmark").glob("mam-bench-*/pairs/*/result.json"))
#: fields a rerun of the same pair may change (the environment and the clock)
VOLATILE = ("provenance", "_wall_seconds")


@pytest.fixture(scope="module")
def today(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("versions") / "run"
    argv = ["run", "schelling", "--controller", "random", "--rounds", "2", "--param", "size=10", "--out", str(out)]
    assert main(argv) == 0
    return out


def as_version_2(folder: Path) -> None:
    """The folder's records as version 2 wrote them: spec.json's controller a name, its options beside."""
    spec = json.loads((folder / "spec.json").read_text())
    controller = dict(spec.pop("controller"))
    spec.update(record_version=2, controller=controller.pop("name"), controller_options=controller)
    (folder / "spec.json").write_text(json.dumps(spec))
    result = json.loads((folder / "result.json").read_text())
    (folder / "result.json").write_text(json.dumps({**result, "record_version": 2}))


def test_today_writes_version_3_with_one_controller_shape(today: Path) -> None:
    spec, result = (json.loads((today / n).read_text()) for n in ("spec.json", "result.json"))
    assert spec["record_version"] == result["record_version"] == RECORD_VERSION == 3
    assert spec["controller"] == {"name": "random"} and "controller_options" not in spec
    assert result["controller"]["name"] == "random"


def test_older_records_read_in_the_new_shape() -> None:
    v2_spec = {"record_version": 2, "world": "voter", "controller": "llm", "controller_options": {"model": "fake:x"}}
    v1_spec = {"world": "voter", "policy": "llm", "controller_options": {"model": "fake:x"}}
    want = {"world": "voter", "controller": {"name": "llm", "model": "fake:x"}}
    assert read_record(v2_spec, "spec.json") == read_record(v1_spec, "spec.json") == want
    v1_result = {"policy": "llm", "controller": {"model": "fake:x", "temperature": None}}
    v2_result = {"record_version": 2, "controller": {"name": "llm", "model": "fake:x", "temperature": None}}
    assert (
        read_record(v1_result, "result.json")
        == read_record(v2_result, "result.json")
        == {"controller": {"name": "llm", "model": "fake:x", "temperature": None}}
    )
    assert spec_fields(want) == {"world": "voter", "controller": "llm", "controller_options": {"model": "fake:x"}}
    assert PairSpec.build(**spec_fields(want)).controller_options == {"model": "fake:x"}


def test_a_version_2_folder_reads_as_today_and_resumes_to_the_same_result(today: Path, tmp_path: Path, capsys) -> None:
    old = tmp_path / "old"
    shutil.copytree(today, old, ignore=shutil.ignore_patterns(".mam-bench.lock"))
    as_version_2(old)
    for name in ("spec.json", "result.json"):
        recorded = [read_record(json.loads((d / name).read_text()), name) for d in (today, old)]
        assert recorded[0] == recorded[1], name
    finished = json.loads((today / "result.json").read_text())
    (old / "result.json").unlink()  # as if killed before the end: the resume plays it from spec.json
    code, err = cli_in_process(capsys, "run", "--resume", str(old))
    assert code == 0, err
    again = json.loads((old / "result.json").read_text())
    assert {k: v for k, v in again.items() if k not in VOLATILE} == {
        k: v for k, v in finished.items() if k not in VOLATILE
    }


def test_a_version_2_folder_replays_in_the_dashboard(today: Path, tmp_path: Path) -> None:
    from mam_bench.dashboards.replay import load_recording

    old = tmp_path / "old"
    shutil.copytree(today, old, ignore=shutil.ignore_patterns(".mam-bench.lock"))
    as_version_2(old)
    assert load_recording(old).info.controller == load_recording(today).info.controller == "replay of random"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parents[2].name}/{p.parent.name}")
def test_every_shipped_result_reads_in_the_new_shape(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = read_record(data, path.name)
    assert isinstance(record["controller"], dict) and isinstance(record["controller"]["name"], str)
    assert "policy" not in record and "record_version" not in record
    assert data.get("record_version", 1) <= RECORD_VERSION


def test_the_shipped_records_hold_an_older_version_read_as_it_was_written() -> None:
    """The v1 gemma record was written before version 3 and is read, never rewritten: the reader of
    old versions runs on real records, not only on ones this suite made."""
    versions = {json.loads(p.read_text(encoding="utf-8")).get("record_version", 1) for p in SHIPPED}
    assert min(versions) < RECORD_VERSION
