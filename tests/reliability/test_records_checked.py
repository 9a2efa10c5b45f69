"""Records are checked before they are read: one reader of `record_version` refuses a newer or a
malformed version by the file's name; a `.snapshots` header claiming 10^11 elements is damage, not
an allocation, in `animate`, `export`, `dashboard --run` and `run --resume`; and a reference and
treatment swapped is caught by the digests `result.json` records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mam_bench.cli import main
from mam_bench.errors import ConfigError
from mam_bench.record_schema import RECORD_VERSION, read_record, record_version
from mam_bench.records import DIGESTS_KEY, read_rounds
from tests.support.cli import cli_in_process
from tests.support.damage import huge_header

BAD_VERSIONS = ["abc", None, [], 1e20, -1, 0, 2.5, True, {}]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished run, made once (copied by each test that changes it)."""
    out = tmp_path_factory.mktemp("records") / "R"
    assert main(["run", "schelling", "--rounds", "2", "--param", "size=10", "--out", str(out)]) == 0
    assert main(["run", "pursuit", "--seed", "1", "--rounds", "2", "--out", str(out.parent / "S")]) == 0
    return out


@pytest.fixture()
def run_copy(recorded: Path, tmp_path: Path) -> Path:
    """A copy of the schelling run R (and beside it the pursuit run S, which `export` reads)."""
    for name in ("R", "S"):
        shutil.copytree(recorded.parent / name, tmp_path / name, ignore=shutil.ignore_patterns(".mam-bench.lock"))
    return tmp_path / "R"


def command_on(run_copy: Path, command: str) -> tuple[Path, list[str]]:
    """The run a command reads (S for export) and its argv."""
    if command == "export":
        run = run_copy.parent / "S"
        return run, ["export", str(run), "--format", "swarmbench", "--out", str(run_copy.parent / "x")]
    if command == "animate":
        return run_copy, ["animate", str(run_copy), "--out", str(run_copy.parent / "a.gif")]
    return run_copy, ["dashboard", "--run", str(run_copy)]


@pytest.mark.parametrize("version", BAD_VERSIONS, ids=repr)
def test_a_malformed_record_version_is_refused_by_the_one_reader(version: object) -> None:
    with pytest.raises(ConfigError) as caught:
        read_record({"record_version": version, "world": "x"}, "spec.json")
    assert caught.value.field == "spec.json" and "record_version" in caught.value.message


def test_a_newer_version_is_named_and_older_ones_read() -> None:
    with pytest.raises(ConfigError) as caught:
        record_version({"record_version": RECORD_VERSION + 1}, "spec.json")
    newer = RECORD_VERSION + 1
    assert str(caught.value) == f"spec.json: record_version {newer} is newer than this mam-bench ({RECORD_VERSION})"
    assert record_version({}, "spec.json") == 1
    assert read_record({"policy": "rule"}, "spec.json") == {"controller": {"name": "rule"}}


def test_resume_refuses_a_newer_spec(run_copy: Path, capsys: pytest.CaptureFixture) -> None:
    spec = json.loads((run_copy / "spec.json").read_text())
    newer = RECORD_VERSION + 1
    (run_copy / "spec.json").write_text(json.dumps({**spec, "record_version": newer}))
    (run_copy / "result.json").unlink()
    before = sorted(p.name for p in run_copy.iterdir())
    code, err = cli_in_process(capsys, "run", "--resume", str(run_copy))
    want = f"error: spec.json: record_version {newer} is newer than this mam-bench ({RECORD_VERSION})"
    assert code == 2 and err == want, err
    assert sorted(p.name for p in run_copy.iterdir()) == before


@pytest.mark.parametrize("version", ["abc", None, 2.5, True])
def test_export_refuses_a_malformed_result_version(run_copy: Path, version: object, capsys) -> None:
    result = json.loads((run_copy / "result.json").read_text())
    (run_copy / "result.json").write_text(json.dumps({**result, "record_version": version}))
    code, err = cli_in_process(capsys, "animate", str(run_copy), "--out", str(run_copy.parent / "a.gif"))
    assert code == 2 and "record_version" in err and "Traceback" not in err, err


def test_the_snapshot_digests_are_recorded(recorded: Path) -> None:
    digests = json.loads((recorded / "result.json").read_text())[DIGESTS_KEY]
    assert sorted(digests) == ["reference.snapshots", "treatment.snapshots"]
    assert read_rounds(recorded, "treatment.jsonl")


@pytest.mark.parametrize("command", ["animate", "export", "dashboard"])
def test_a_huge_snapshot_header_is_damage(run_copy: Path, command: str, capsys: pytest.CaptureFixture) -> None:
    run, argv = command_on(run_copy, command)
    result = json.loads((run / "result.json").read_text())
    result.pop(DIGESTS_KEY)  # an older run without digests: the damage itself must be seen
    (run / "result.json").write_text(json.dumps(result))
    huge_header(run / "treatment.snapshots")
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and "damaged" in err and "Traceback" not in err, err


def test_resume_reads_a_huge_snapshot_header_as_damage(run_copy: Path, capsys: pytest.CaptureFixture) -> None:
    (run_copy / "result.json").unlink()
    huge_header(run_copy / "treatment.snapshots")
    before = {p.name: p.read_bytes() for p in run_copy.iterdir() if p.is_file()}
    code, err = cli_in_process(capsys, "run", "--resume", str(run_copy))
    assert code == 2 and err.startswith("error: resume: ") and "treatment.snapshots is damaged" in err, err
    assert {p.name: p.read_bytes() for p in run_copy.iterdir() if p.is_file()} == before  # nothing changed


@pytest.mark.parametrize("command", ["animate", "export", "dashboard"])
def test_swapped_snapshots_are_caught(run_copy: Path, command: str, capsys: pytest.CaptureFixture) -> None:
    run, argv = command_on(run_copy, command)
    ref, tre = run / "reference.snapshots", run / "treatment.snapshots"
    ref_bytes, tre_bytes = ref.read_bytes(), tre.read_bytes()
    assert ref_bytes != tre_bytes
    ref.write_bytes(tre_bytes)
    tre.write_bytes(ref_bytes)
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and "is not the file this run recorded" in err, err
    assert not (run_copy.parent / "a.gif").exists() and not (run_copy.parent / "x").exists()


def test_a_run_without_digests_still_reads(run_copy: Path) -> None:
    result = json.loads((run_copy / "result.json").read_text())
    result.pop(DIGESTS_KEY)
    (run_copy / "result.json").write_text(json.dumps(result))
    assert len(read_rounds(run_copy, "treatment.jsonl")) == 3
