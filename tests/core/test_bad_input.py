"""Bad input fails before any work, with exit code 2 and a message naming the field."""

from __future__ import annotations

import subprocess

import pytest

from mam_bench.cli import main

CASES = [
    (["run", "schelling", "--param", "threshold=1.5"], "param.threshold"),
    (["run", "schelling", "--param", "vacancy=0"], "param.vacancy"),
    (["run", "schelling", "--param", "vacancy=1"], "param.vacancy"),
    (["run", "schelling", "--param", "vacancy=banana"], "param.vacancy"),
    (["run", "schelling", "--influence", "301"], "influence"),
    (["run", "schelling", "--influence-ids", "0,1,999"], "influence_ids"),
    (["run", "schelling", "--influence-ids", "0,0"], "influence_ids"),
    (["run", "schelling", "--influence-ids", "a,b"], "influence_ids"),
    (["run", "atlantis"], "world"),
    (["run", "schelling", "--param", "treshold=3/4"], "param.treshold"),
    (["run", "schelling", "--param", "threshold"], "param"),
    (["run", "schelling", "--objective", "conquer"], "objective"),
    (["run", "schelling", "--policy", "clairvoyant"], "controller"),
    (["run", "schelling", "--candidates", "2"], "candidates"),
    (["run", "schelling", "--policy", "oracle", "--candidates", "-1"], "candidates"),
    (["run", "schelling", "--seed", "-1"], "seed"),
    (["run", "schelling", "--rounds", "0"], "rounds"),
    (
        [
            "run",
            "schelling",
            "--rounds",
            "31",
            "--param",
            "rule=pilot_v2",
            "--param",
            "vision=1",
            "--param",
            "rounds=30",
        ],
        "rounds",
    ),
    (["run", "civil_violence_cascade", "--rounds", "31"], "rounds"),
    (["landscape", "schelling", "--thresholds", "3/2", "--vacancies", "0.25"], "param.threshold"),
    (["landscape", "schelling", "--thresholds", "3/4", "--vacancies", "0.25", "--seeds", "x"], "seeds"),
    (["landscape", "schelling", "--thresholds", "3/4"], "axis"),
    (
        ["landscape", "schelling", "--thresholds", "3/4", "--axis", "threshold=1/2", "--vacancies", "0.25"],
        "axis.threshold",
    ),
    (["landscape", "schelling", "--axis", "threshold", "--vacancies", "0.25"], "axis"),
    (["landscape", "civil_violence_cascade", "--thresholds", "3/4", "--vacancies", "0.25"], "axis"),
    (
        ["landscape", "civil_violence_cascade", "--axis", "threshold=0,0", "--axis", "police_density=0"],
        "axis.threshold",
    ),
    (
        ["landscape", "civil_violence_cascade", "--axis", "threshold=0", "--axis", "police_density=2"],
        "param.police_density",
    ),
]


@pytest.mark.parametrize("argv, field", CASES, ids=[" ".join(c[0][1:]) for c in CASES])
def test_bad_input_names_the_field_and_writes_nothing(argv, field, tmp_path, capsys):
    out = tmp_path / "run"
    extra = ["--out", str(out)] if argv[0] == "run" else ["--out", str(out / "l.csv")]
    code = main([*argv, *extra])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"error: {field}:"), err
    assert not out.exists() or not any(out.iterdir())


def test_non_writable_out_fails_before_work_in_a_real_process(tmp_path, cli_env, mam_bench_cmd):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    proc = subprocess.run(
        [*mam_bench_cmd, "run", "schelling", "--out", str(blocker / "run")],
        capture_output=True,
        text=True,
        env=cli_env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: out:"), proc.stderr
    assert "reference" not in proc.stdout
