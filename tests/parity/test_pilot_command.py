"""`mam-bench parity pilot`: our references stepped beside the rules-only re-derivation of the
pilot's worlds; identical runs exit 0, a mutated rule exits 1 naming the first differing step."""

from __future__ import annotations

from mam_bench.cli import main
from mam_bench.models.pilot import pilot_worlds

SMALL = ["--seeds", "0-1", "--param", "size=10", "--param", "vacancy=0.2", "--param", "max_steps=6"]


def test_the_pilots_worlds_are_identical_at_every_step(capsys):
    assert main(["parity", "pilot", *SMALL]) == 0
    out = capsys.readouterr().out
    assert "identical at every step: 4 runs" in out
    assert out.count(": identical") == 4


def test_a_mutated_rule_is_caught_at_the_step_it_first_acts(capsys, monkeypatch):
    """The claim order without its shuffle: the set-up is untouched, the first step is not."""

    def unshuffled(seed, step, phase, ids, selected):
        return sorted(i for i in ids if i in selected) + sorted(i for i in ids if i not in selected)

    monkeypatch.setattr(pilot_worlds, "claim_order", unshuffled)
    argv = ["--seeds", "0-1", "--param", "size=10", "--param", "max_steps=6", "--world", "civil_violence_cascade"]
    assert main(["parity", "pilot", *argv]) == 1
    out = capsys.readouterr().out
    assert "civil_violence_cascade seed 0: first difference at step 1: agent " in out
    assert "2 of 2 runs differ from pilot's rules" in out


def test_a_changed_threshold_is_caught_too(capsys, monkeypatch):
    real = pilot_worlds.schelling_reference

    def stricter(**case):
        return real(**{**case, "tolerance": case["tolerance"] + 0.1})

    monkeypatch.setattr(pilot_worlds, "schelling_reference", stricter)
    assert main(["parity", "pilot", *SMALL, "--world", "schelling"]) == 1
    assert "schelling seed 0: first difference at step " in capsys.readouterr().out


def test_an_unknown_setting_is_named_before_any_run(capsys):
    assert main(["parity", "pilot", "--param", "tolerance=0.5", "--world", "civil_violence_cascade"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: param.tolerance: not a pilot setting of civil_violence_cascade")
    assert main(["parity", "pilot", "--param", "size=big"]) == 2
    assert capsys.readouterr().err.startswith("error: param.size: expected a int")
    assert main(["parity", "pilot", "--param", "size=10"]) == 2  # 85 agents: no two equal halves
    assert capsys.readouterr().err.startswith("error: param.vacancy: size 10 and vacancy 0.15 leave 85 agents")


def test_the_re_derivation_imports_nothing_of_the_engine():
    import ast
    from pathlib import Path

    tree = ast.parse(Path(pilot_worlds.__file__).read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert names == {"__future__", "hashlib", "math", "numpy"}


def test_an_unknown_tool_or_world_is_named(capsys):
    assert main(["parity", "nobody"]) == 2
    assert capsys.readouterr().err.startswith("error: tool: no parity tool 'nobody' (registered: pilot)")
    assert main(["parity", "pilot", "--world", "voter"]) == 2
    assert capsys.readouterr().err.startswith("error: world: the pilot has no world 'voter'")
