"""`mam-bench landscape civil_violence_cascade` sweeps the two axes the world registers (threshold,
police_density); each row is the reference a pair would play, held here to the pilot's own rules."""

from __future__ import annotations

import csv

from mam_bench.cli import main
from mam_bench.models.civil_violence_cascade.landscape import CascadeLandscape
from mam_bench.models.civil_violence_cascade.params import CascadeParams
from mam_bench.models.pilot.pilot_worlds import cascade_reference
from tests.civil_violence_cascade.test_pilot_parity import CASES


def test_a_landscape_row_is_the_pilots_reference():
    seed, case = CASES["police-53000"]
    _, shares, end = cascade_reference(seed=seed, **case)
    params = CascadeParams(controlled_role="police", police_density=0.05, threshold=1.0, max_jail=6)
    row = CascadeLandscape.reference_outcome(params, seed)
    assert (row["final_participation"], row["rounds"]) == (shares[-1], len(shares) - 1)
    assert (row["status"] == "revolution") == (end == "revolution")


def test_the_command_sweeps_the_registered_axes(tmp_path, capsys):
    out = tmp_path / "l.csv"
    argv = ["landscape", "civil_violence_cascade", "--axis", "threshold=-100,1", "--axis", "police_density=0"]
    assert main([*argv, "--size", "8", "--param", "max_steps=5", "--seeds", "0-1", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0]) == ["threshold", "police_density", "seed", "status", "rounds", "final_participation",
                             "final_revolution"]  # fmt: skip
    assert [(r["threshold"], r["seed"]) for r in rows] == [("-100", "0"), ("-100", "1"), ("1", "0"), ("1", "1")]
    assert {r["status"] for r in rows[:2]} == {"revolution"}  # everyone turns active at once
    printed = capsys.readouterr().out
    assert "threshold police_density  mean_part" in printed and "2 revolution" in printed
