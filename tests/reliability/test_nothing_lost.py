"""Nothing lost: a failed run leaves an existing run in place, --force moves it aside, one writer per folder."""

from __future__ import annotations

import json
import subprocess
import sys

from mam_bench.cli import main
from mam_bench.run_dir import DirLock

RUN = ["run", "schelling", "--seed", "22", "--policy", "heuristic", "--rounds", "3"]


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_bad_policy_leaves_every_file_of_the_old_run(tmp_path, capsys):
    out = tmp_path / "r"
    assert main([*RUN, "--out", str(out)]) == 0
    before = _snapshot(out)
    assert {"spec.json", "result.json", "treatment.jsonl", "decisions.jsonl"} <= set(before)
    assert main(["run", "schelling", "--policy", "nope", "--out", str(out), "--force"]) == 2
    assert "error: controller:" in capsys.readouterr().err
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]


def test_rerunning_into_a_run_is_refused_without_force(tmp_path, capsys):
    out = tmp_path / "r"
    assert main([*RUN, "--out", str(out)]) == 0
    before = _snapshot(out)
    assert main([*RUN, "--seed", "5", "--out", str(out)]) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert _snapshot(out) == before


def test_force_keeps_the_old_run_under_a_renamed_folder(tmp_path):
    out = tmp_path / "r"
    assert main([*RUN, "--out", str(out)]) == 0
    before = _snapshot(out)
    assert (
        main(
            ["run", "schelling", "--seed", "7", "--policy", "heuristic", "--rounds", "3", "--out", str(out), "--force"]
        )
        == 0
    )
    aside = tmp_path / "r.replaced-1"
    assert _snapshot(aside) == {k: v for k, v in before.items() if k != ".mam-bench.lock"}
    assert json.loads((out / "result.json").read_text())["seed"] == 7
    assert json.loads((aside / "result.json").read_text())["seed"] == 22


def test_a_rejected_run_creates_no_folder(tmp_path):
    out = tmp_path / "deep" / "r"
    assert main(["run", "schelling", "--policy", "nope", "--out", str(out)]) == 2
    assert main(["run", "schelling", "--influence-ids", ",", "--out", str(out)]) == 2
    assert main(["run", "schelling", "--objective", "", "--out", str(out)]) == 2
    assert not (tmp_path / "deep").exists()


def test_a_second_writer_gets_a_clear_error(tmp_path, capsys):
    out = tmp_path / "r"
    with DirLock(out):
        assert main([*RUN, "--out", str(out)]) == 2
    assert "in use by another mam-bench process" in capsys.readouterr().err
    assert not (out / "treatment.jsonl").exists()


def test_two_concurrent_runs_one_wins(tmp_path):
    """Two real processes into one --out: exactly one writes the run, the other exits 2."""
    out = tmp_path / "r"
    cmd = [sys.executable, "-m", "mam_bench", "run", "schelling", "--seed", "3", "--rounds", "40", "--out", str(out)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    codes = sorted(rc for rc, _ in results)
    assert codes == [0, 2], results
    loser = next(err for rc, err in results if rc == 2)
    assert "in use by another" in loser or "already holds a run" in loser
    lines = (out / "treatment.jsonl").read_text().splitlines()
    assert len(lines) == 41


def test_resume_refuses_other_flags_and_a_damaged_spec(tmp_path, capsys):
    out = tmp_path / "r"
    assert main([*RUN, "--out", str(out)]) == 0
    assert main(["run", "--resume", str(out), "--policy", "random"]) == 2
    (out / "spec.json").write_text("{torn")
    assert main(["run", "--resume", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--controller cannot be combined with --resume" in err and "spec.json is damaged" in err
    assert "Traceback" not in err
