"""The newest commands hold like the older ones: `benchmark` validates with experiment's rules and
limits before it writes, every reader of records (the leaderboard, --replay, report's analyses,
export) names the damaged file, conflicting flags are refused, and a full disk is one line that
names the file and leaves nothing half-written."""

from __future__ import annotations

import errno
import hashlib
import json
import shutil
from pathlib import Path

import pytest
import yaml

from mam_bench.cli import main
from mam_bench.errors import ConfigError
from tests.support.cli import cli_in_process

DEFINITION = {
    "name": "nc-bench",
    "tiers": {"quick": {"seeds": "0-1", "rounds": 2}},
    "scenarios": [
        {"name": "s-int", "world": "schelling", "objective": "integrate", "params": {"size": 10}, "rounds": 2,
         "influence": 2},
    ],
}  # fmt: skip
BENCH = ["benchmark", "--definition", "def.yaml", "--policy", "heuristic"]


def tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.name != ".mam-bench.lock"
    }


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A benchmark folder B, a run R and an experiment E, made once."""
    root = tmp_path_factory.mktemp("newest")
    (root / "def.yaml").write_text(yaml.safe_dump(DEFINITION))
    suite = {"name": "nc", "seeds": 1, "cases": [{"world": "pursuit", "rounds": 2}]}
    (root / "suite.yaml").write_text(yaml.safe_dump(suite))
    import os

    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main([*BENCH, "--out", "B", "--jobs", "1"]) == 0
        assert main(["run", "schelling", "--rounds", "2", "--param", "size=10", "--out", "R"]) == 0
        assert main(["experiment", "suite.yaml", "--out", "E", "--jobs", "1"]) == 0
    finally:
        os.chdir(cwd)
    return root


@pytest.fixture()
def here(sandbox: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy of the sandbox as the working folder (cases may damage it)."""
    root = tmp_path / "s"
    shutil.copytree(sandbox, root)
    monkeypatch.chdir(root)
    return root


def _definition(**scenario: object) -> str:
    return yaml.safe_dump({**DEFINITION, "scenarios": [{**DEFINITION["scenarios"][0], **scenario}]})


REFUSED = {
    "seeds a superscript": ([*BENCH, "--seeds", "\u00b2", "--out", "N"], "seeds", None),
    "seeds over the cap": ([*BENCH, "--seeds", "0-2000000", "--out", "N"], "seeds", None),
    "tier empty": ([*BENCH, "--tier", "", "--out", "N"], "tier", None),
    "model without provider": (
        ["benchmark", "--definition", "def.yaml", "--policy", "llm", "--model", "gpt-4o", "--out", "N"],
        "model",
        None,
    ),
    "out holds a run": ([*BENCH, "--out", "R"], "out", None),
    "out holds an experiment": ([*BENCH, "--out", "E"], "out", None),
    "rounds 1e9": (
        [*BENCH[:2], "bad.yaml", *BENCH[3:], "--out", "N"],
        "definition.scenarios.0.rounds",
        _definition(rounds=10**9),
    ),  # fmt: skip
    "reference bogus": (
        [*BENCH[:2], "bad.yaml", *BENCH[3:], "--out", "N"],
        "definition.scenarios.0.reference",
        _definition(reference="bogus"),
    ),  # fmt: skip
    "scenario a/b": (
        [*BENCH[:2], "bad.yaml", *BENCH[3:], "--out", "N"],
        "definition.scenarios.0.name",
        _definition(name="a/b"),
    ),  # fmt: skip
    "duplicate key": (
        [*BENCH[:2], "bad.yaml", *BENCH[3:], "--out", "N"],
        "definition.name",
        "name: a\nname: b\n" + yaml.safe_dump({k: v for k, v in DEFINITION.items() if k != "name"}),
    ),  # fmt: skip
    "seeds true in a suite": (
        ["experiment", "bad.yaml", "--out", "N"],
        "seeds",
        yaml.safe_dump({"name": "t", "seeds": True, "cases": [{"world": "schelling"}]}),
    ),  # fmt: skip
    "experiment into a benchmark": (["experiment", "suite.yaml", "--out", "B", "--allow-mixed"], "out", None),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_bad_input_is_one_line_before_anything_is_written(case: str, here: Path, capsys) -> None:
    argv, field, text = REFUSED[case]
    if text is not None:
        (here / "bad.yaml").write_text(text)
    before = tree(here)
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and err.startswith(f"error: {field}: ") and len(err.strip().splitlines()) == 1, err
    assert "errors.pydantic.dev" not in err and "Traceback" not in err
    assert tree(here) == before


def test_the_model_error_keeps_pydantics_reason(here: Path, capsys) -> None:
    argv = ["benchmark", "--definition", "def.yaml", "--policy", "llm", "--model", "gpt-4o", "--out", "N"]
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and "expected provider:model, got 'gpt-4o'" in err, err


def _roles_damaged(b: Path) -> None:
    manifest = json.loads((b / "benchmark.json").read_text())
    manifest["roles"] = {k: "x" for k in manifest["roles"]}
    (b / "benchmark.json").write_text(json.dumps(manifest))


DAMAGE = {
    "garbage table": (lambda b: (b / "table.csv").write_text("garbage,x\n1,2\n"), "table.csv"),
    "a seed that is text": (
        lambda b: (b / "table.csv").write_text((b / "table.csv").read_text().replace(",0,0,", ",zero,0,", 1)),
        "table.csv",
    ),
    "damaged roles": (_roles_damaged, "benchmark.json"),
    "manifest a folder": (
        lambda b: ((b / "benchmark.json").unlink(), (b / "benchmark.json").mkdir()),
        "benchmark.json",
    ),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_readers_of_a_benchmark_name_the_damaged_file(case: str, here: Path, capsys) -> None:
    damage, name = DAMAGE[case]
    damage(here / "B")
    for argv in (
        ["report", "B", "--leaderboard"],
        ["benchmark", "--definition", "def.yaml", "--policy", "replay", "--replay", "B", "--out", "N"],
    ):
        code, err = cli_in_process(capsys, *argv)
        assert code == 2 and name in err and "Traceback" not in err, (argv, err)
    assert not (here / "N").exists()


def test_analyses_and_export_name_a_torn_result(here: Path, capsys) -> None:
    import csv

    rows = csv.DictReader((here / "E" / "table.csv").open())
    pair = here / "E" / "pairs" / next(r["pair_id"] for r in rows if r["role"] == "case")
    (pair / "result.json").write_text((pair / "result.json").read_text()[:100])
    code, err = cli_in_process(capsys, "report", "E", "--analysis", "swarm")
    assert code == 2 and f"{pair.name}/result.json is damaged" in err, err
    code, err = cli_in_process(capsys, "export", "E", "--format", "swarmbench", "--out", "X")
    assert code == 2 and f"{pair.name}/result.json is damaged" in err, err
    assert not (here / "X").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "E", "--agentworld", "--out", "x.html"],
        ["report", "B", "--leaderboard", "--agentworld"],
        ["report", "E", "--analysis", ""],
        ["report", "E", "--analysis", "swarm", "--markdown"],
        ["report", "B", "--leaderboard", "--no-split"],
    ],
    ids=lambda a: " ".join(a[2:]),
)
def test_conflicting_report_flags_are_refused(argv: list[str], here: Path, capsys) -> None:
    before = tree(here)
    code, err = cli_in_process(capsys, *argv)
    assert code == 2 and err.startswith("error: "), err
    assert tree(here) == before


def test_export_limits_its_out_name_in_bytes(here: Path, capsys) -> None:
    code, err = cli_in_process(capsys, "export", "E", "--format", "swarmbench", "--out", "\u00e9" * 200)
    assert code == 2 and "400 bytes" in err, err


def _full_disk(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Writing a file called `name` fails half-way, as on a full disk."""
    real = Path.write_text

    def write_text(self: Path, text: str, *args: object, **kw: object) -> int:
        if self.name.lstrip(".").startswith(name):
            real(self, text[: len(text) // 2], *args, **kw)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, text, *args, **kw)

    monkeypatch.setattr(Path, "write_text", write_text)


def test_a_full_disk_at_result_json_names_it_and_leaves_no_half_file(
    here: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _full_disk(monkeypatch, "result.json")
    code, err = cli_in_process(capsys, "run", "schelling", "--rounds", "2", "--param", "size=10", "--out", "F")
    assert code == 2 and "cannot write F/result.json: No space left on device" in err, err
    assert not (here / "F" / "result.json").exists() and not list((here / "F").glob(".*.tmp"))
    monkeypatch.undo()  # space freed: the resume finishes the run
    monkeypatch.chdir(here)
    code, err = cli_in_process(capsys, "run", "--resume", "F")
    assert code == 0, err
    assert json.loads((here / "F" / "result.json").read_text())["world"] == "schelling"


def test_a_full_disk_keeps_the_old_table_whole(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mam_bench.experiment.table import TidyTable

    before = (here / "E" / "table.csv").read_bytes()
    table = TidyTable(here / "E")
    _full_disk(monkeypatch, "table.csv")
    with pytest.raises(ConfigError, match="cannot write .*table.csv: No space left"):
        table.finish(list(table.rows))
    table.close()
    assert (here / "E" / "table.csv").read_bytes() == before
    assert not list((here / "E").glob(".table.csv.tmp"))


def test_a_full_disk_while_appending_a_record_names_the_file(tmp_path: Path) -> None:
    from mam_bench.records import RunRecords

    class FullDisk:
        """The record's open file, on a disk that just filled up."""

        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self) -> None:
            pass

    records = RunRecords(tmp_path / "run")
    records.append("reference.jsonl", {"round": 0})
    records._files["reference.jsonl"].close()
    records._files["reference.jsonl"] = FullDisk()
    with pytest.raises(ConfigError, match="reference.jsonl: No space left on device; finished records are kept"):
        records.append("reference.jsonl", {"round": 1})
    records.close()
    assert (tmp_path / "run" / "reference.jsonl").read_text().count("\n") == 1
