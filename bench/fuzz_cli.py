"""The hostile and careless user, rerun: every subcommand fed the probe's inputs and
generated ones, each in a fresh sandbox holding a finished run (R), a finished experiment (E), a
suite and a few of the user's own files. Counted per case:

- traceback: an exception escaped `main` (anything but argparse's usage exit);
- data loss: a file or folder that was there before is changed or gone afterwards and its bytes
  are found nowhere in the sandbox (`--force` moves the old one aside, which keeps them);
- silent wrong result: exit 0 where the input must be refused (or non-zero where it must pass);
- hang: a case still running after HANG_SECONDS (stopped by an alarm);
- unclear error: a refusal (exit non-zero, as it must be) whose message names nothing: no line
  `error: FIELD: reason` (argparse's own `usage: ... error: argument --flag: ...` counts as clear).

The sandbox also holds a small benchmark folder (B, from def.yaml), a pursuit run (S) and a task
file with its verifier, so the newest commands (benchmark, report's leaderboard and analyses,
export, tasks --check) are fed the same way; `--list` also names any flag no case uses.

    .venv/bin/python -m bench.fuzz_cli [--only WORD] [--list]

prints the table (per command and in total) and each failing case.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import itertools
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from mam_bench.cli import build_parser, main
from tests.support.damage import huge_header

RUN = ["run", "schelling", "--seed", "3", "--param", "size=10", "--rounds", "2"]
LAND = ["landscape", "schelling", "--thresholds", "1/2", "--vacancies", "0.2", "--seeds", "0,1", "--size", "10"]
CASE = {"world": "schelling", "params": {"size": 10}, "rounds": 2}
SUITE = {"name": "fz", "seeds": 2, "cases": [CASE]}
LONG = "x" * 300
#: a case still running after this many seconds is a hang
HANG_SECONDS = 120
#: a one-scenario benchmark that plays in seconds (the shipped one plays 144 pairs)
DEFINITION = {
    "name": "fz-bench",
    "tiers": {"quick": {"seeds": "0-1", "rounds": 2}},
    "scenarios": [
        {
            "name": "s-int",
            "world": "schelling",
            "objective": "integrate",
            "params": {"size": 10},
            "rounds": 2,
            "influence": 2,
        },
    ],
}
BENCH = ["benchmark", "--definition", "def.yaml", "--policy", "heuristic"]
S_RUN = ["run", "pursuit", "--seed", "1", "--rounds", "2"]
TASK = """\
name: fz_task
category: crafting
description: Two lumberjacks and two crafters turn logs into planks.
objective: Make 3 planks.
budget: 3
verifier: fz_criteria.py
verifier_seconds: 1
agents:
  - {role: lumberjack, spawn: forest, equipment: [axe]}
  - {role: lumberjack, spawn: forest, equipment: [axe]}
  - {role: crafter, spawn: town}
  - {role: crafter, spawn: town}
targets:
  - {item: plank, qty: 3, to: "role:crafter"}
checkpoints:
  - {name: planks held, kind: held, item: plank, qty: 3, scope: "role:crafter"}
"""
VERIFIERS = {
    "fine": "def verify(trajectory):\n    return False\n",
    "loops at import": "while True:\n    pass\n",
    "sleeps": "import time\ndef verify(trajectory):\n    time.sleep(3600)\n",
    "exits": "import sys\ndef verify(trajectory):\n    sys.exit(0)\n",
    "raises": "def verify(trajectory):\n    raise RuntimeError('x')\n",
    "no verify": "def check(trajectory):\n    return True\n",
    "returns a tuple": "def verify(trajectory):\n    return (1, 'ok')\n",
}
WORLDS = (
    "boltzmann",
    "civil_violence",
    "crafting",
    "flocking",
    "foraging",
    "pursuit",
    "schelling",
    "synchronization",
    "transport",
    "voter",
)


@dataclass
class Case:
    name: str
    argv: list[str]
    ok: bool = False  # True: must succeed (exit 0); False: must be refused (exit 2 or 3)
    setup: str | None = None  # a sandbox edit before the case (see SETUPS)
    replaces: tuple[str, ...] = ()  # paths an ok case may rewrite (its own output)
    suite_text: str | None = None  # written to bad.yaml
    files: dict[str, str] = field(default_factory=dict)  # more files written before the case


@dataclass
class Outcome:
    case: Case
    code: int | None
    err: str
    traceback: bool = False
    lost: list[str] = field(default_factory=list)
    wrong: bool = False
    hang: bool = False
    unclear: bool = False


class Hang(BaseException):
    """The alarm of a case that ran longer than HANG_SECONDS."""


def tree(root: Path) -> dict[str, str]:
    state = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.name in (".mam-bench.lock", ".write-probe"):
            continue
        if p.is_symlink():
            state[rel] = "link"
        elif p.is_dir():
            state[rel] = "dir"
        elif p.is_file():
            state[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def _damage(path: Path, how: str) -> None:
    if how == "folder":
        path.unlink()
        path.mkdir()
        (path / "x").write_text("x")
    elif how == "garbage":
        path.write_bytes(b"\xff\xfe not json \x00")
    elif how == "torn":
        path.write_text(path.read_text()[:-7])
    elif how == "empty":
        path.write_text("")
    elif how == "deep":
        path.write_text("[" * 100_000 + "]" * 100_000)


def _edit_decisions(root: Path, how: str) -> None:
    path = root / "R" / "decisions.jsonl"
    lines = path.read_text().splitlines()
    if how == "tamper":
        row = json.loads(lines[3])
        row["decision"] = {"row": 0, "col": 0}
        lines[3] = json.dumps(row)
    elif how == "reorder":
        lines[1], lines[2] = lines[2], lines[1]
    elif how == "truncate":
        lines = lines[:-1]
    elif how == "drop-first":
        lines = lines[1:]
    elif how == "strip-chain":
        lines = [json.dumps({k: v for k, v in json.loads(x).items() if k != "chain"}) for x in lines]
    elif how == "duplicate":
        lines = lines + lines[-1:]
    path.write_text("\n".join(lines) + "\n")


def apply_setup(root: Path, setup: str | None) -> None:
    if setup is None:
        return
    kind, _, arg = setup.partition(":")
    if kind == "damage":
        name, how = arg.split("/")
        _damage(root / "R" / name, how)
    elif kind == "decisions":
        _edit_decisions(root, arg)
    elif kind == "lockdir":
        (root / arg / ".mam-bench.lock").mkdir(parents=True)
    elif kind == "foreign-gif":
        (root / "fork.gif").write_bytes(b"GIF89a not ours")
    elif kind == "spec-world":
        spec = json.loads((root / "R" / "spec.json").read_text())
        (root / "R" / "spec.json").write_text(json.dumps({**spec, "world": arg}))
    elif kind == "drop-result":
        (root / "R" / "result.json").unlink()
    elif kind == "bench":  # B's records damaged: bench:FILE/how or bench:roles
        if arg == "roles":
            manifest = json.loads((root / "B" / "benchmark.json").read_text())
            manifest["roles"] = {k: "x" for k in manifest["roles"]}
            (root / "B" / "benchmark.json").write_text(json.dumps(manifest))
        elif arg == "other-rows":
            lines = (root / "B" / "table.csv").read_text().splitlines()
            (root / "B" / "table.csv").write_text(
                "\n".join([lines[0], *(ln.replace(",", ",zz", 2) for ln in lines[1:])])
            )
        else:
            name, how = arg.split("/")
            _damage(root / "B" / name, how)
    elif kind == "swarm":  # S's result.json damaged
        _damage(root / "S" / "result.json", arg)
    elif kind in ("spec-version", "result-version"):  # R's record_version set to the JSON value ARG
        name = "spec.json" if kind == "spec-version" else "result.json"
        data = json.loads((root / "R" / name).read_text())
        (root / "R" / name).write_text(json.dumps({**data, "record_version": json.loads(arg)}))
        if kind == "spec-version":
            (root / "R" / "result.json").unlink()  # a resume reads the spec
    elif kind == "snapshots":  # R's (or S's) .snapshots: a huge array header, or the two swapped
        run, how = arg.split("/")
        ref, tre = root / run / "reference.snapshots", root / run / "treatment.snapshots"
        if how == "swap":
            a, b = ref.read_bytes(), tre.read_bytes()
            ref.write_bytes(b)
            tre.write_bytes(a)
        else:  # as a run recorded before digests (else the digest is what refuses it)
            huge_header(tre)
            result = json.loads((root / run / "result.json").read_text())
            result.pop("snapshots_sha256", None)
            (root / run / "result.json").write_text(json.dumps(result))
            if how == "huge-unfinished":
                (root / run / "result.json").unlink()
    elif kind == "table-truncate":  # B's table.csv cut in the middle of a row
        text = (root / "B" / "table.csv").read_text()
        (root / "B" / "table.csv").write_text(text[: len(text) * 2 // 3])


def cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    # --- the probe's own inputs ---
    add(Case("landscape over notes.txt", [*LAND, "--out", "notes.txt"]))
    add(Case("report over the suite", ["report", "E", "--out", "suite.yaml"]))
    add(Case("animate over a foreign fork.gif", ["animate", "R"], setup="foreign-gif"))
    add(Case("resume, result.json a folder", ["run", "--resume", "R"], setup="damage:result.json/folder"))
    add(Case("landscape duplicate seeds", [*LAND[:-4], "--seeds", "1,1,1", "--out", "l.csv"]))
    add(Case("repeated --param", [*RUN, "--param", "threshold=1/2", "--param", "threshold=3/4", "--out", "r1"]))
    add(Case("run into an experiment folder", [*RUN, "--out", "E"]))
    add(Case("experiment into a run folder", ["experiment", "suite.yaml", "--out", "R"]))
    add(Case("experiment --out empty", ["experiment", "suite.yaml", "--out", ""]))
    for how in ("tamper", "reorder", "truncate", "drop-first", "strip-chain", "duplicate"):
        add(
            Case(
                f"replay of {how} decisions",
                [*RUN, "--policy", "replay", "--replay", "R", "--out", "r2"],
                setup=f"decisions:{how}",
            )
        )
    add(Case("suite rounds 1e8", ["experiment", "bad.yaml", "--out", "E2"], suite_text=_suite(rounds=100_000_000)))
    add(Case("influence 300", ["run", "schelling", "--influence", "300", "--out", "i"]))
    add(Case("oracle on 0 jobs", ["run", "pursuit", "--policy", "oracle", "--jobs", "0", "--out", "oj"]))
    add(Case("oracle on a bad executor", ["run", "pursuit", "--policy", "oracle", "--executor", "mpi", "--out", "oe"]))
    add(Case("landscape axis of no parameter", [*LAND[:2], "--axis", "nothing=1,2", "--seeds", "0", "--out", "ax.csv"]))
    add(Case("out of 300 characters", [*RUN, "--out", LONG]))
    add(Case("resume of a deep spec.json", ["run", "--resume", "R"], setup="damage:spec.json/deep"))
    add(Case("landscape to /dev/full", [*LAND, "--out", "/dev/full"]))
    add(Case("new-world 300 characters", ["new-world", "w" * 300]))
    add(Case("new-world --dir a file", ["new-world", "w2", "--dir", "notes.txt"]))
    add(Case("new-world --dir in /proc", ["new-world", "w2", "--dir", "/proc/self/nope"]))
    add(Case("--max-policy-errors 1.5", [*RUN, "--max-policy-errors", "1.5", "--out", "m"]))
    add(Case("bad world in spec.json", ["run", "--resume", "R"], setup="spec-world:nowhere"))
    add(Case("lock file is a folder", [*RUN, "--out", "r3"], setup="lockdir:r3"))
    add(
        Case(
            "another suite into E",
            ["experiment", "bad.yaml", "--out", "E"],
            suite_text=yaml.safe_dump({"name": "o", "seeds": 1, "cases": [{"world": "voter", "rounds": 2}]}),
        )
    )
    add(Case("resume of a missing folder", ["run", "--resume", "nowhere"]))
    for name in ("os", "sys", "mesa", "numpy"):
        add(Case(f"new-world {name}", ["new-world", name]))
    add(Case("report --split without --markdown", ["report", "E", "--split"]))
    add(Case("suite repeated key", ["experiment", "bad.yaml", "--out", "E2"], suite_text=_dup_key_suite()))
    add(
        Case(
            "suite self-contrast",
            ["experiment", "bad.yaml", "--out", "E2"],
            suite_text=yaml.safe_dump({**SUITE, "contrasts": [["a", "a"]], "cases": [{**CASE, "name": "a"}]}),
        )
    )
    # --- our own: run ---
    bad_run = {
        "--seed": ["-1", "abc", "1.5", "1-3", "1,2", "99999999999999999999999", "", " "],
        "--rounds": ["0", "-1", "100001", "abc", "1e3"],
        "--influence": ["-1", "300", "100000", "x"],
        "--influence-ids": ["", "a,b", "1,1", "999999", "-1", ",,,"],
        "--objective": ["nope", "", "  "],
        "--policy": ["nope", "", "llm", "replay"],
        "--controller": ["nope", ""],
        "--board-window": ["0", "1001", "-3"],
        "--post-cap": ["0", "100001"],
        "--max-policy-errors": ["1.5", "-0.1", "nan", "inf", "x"],
        "--out": ["E", "", "notes.txt", "R", LONG, "/dev/full", "/proc/self/nope/r", "suite.yaml/r"],
        "--param": ["threshold=abc", "size=1000", "size=0", "nope=1", "=", "threshold", "threshold=1/0", "threshold=2"],
        "--model": ["openai:m"],
        "--cache": ["c.sqlite"],
    }
    for flag, values in bad_run.items():
        for value in values:
            base = [a for a in RUN if flag != "--seed" or a not in ("--seed", "3")]
            out_flag = [] if flag == "--out" else ["--out", "rb"]
            add(Case(f"run {flag} {value[:20]!r}", [*base, flag, value, *out_flag]))
    for world in ("nope", "", "Schelling", "../schelling"):
        add(Case(f"run world {world!r}", ["run", world, "--out", "rw"]))
    for world in WORLDS:  # every world: an unknown parameter, an unbounded scale, bad counts
        for flags in (["--param", "nope=1"], ["--param", "size=100000"], ["--rounds", "0"], ["--influence", "100000"]):
            add(Case(f"run {world} {' '.join(flags)}", ["run", world, *flags, "--out", "rx"]))
    # pairs of bad flags
    pairs = [("--seed", "-1"), ("--rounds", "0"), ("--influence", "300"), ("--policy", "nope"), ("--out", "E")]
    for (f1, v1), (f2, v2) in itertools.combinations(pairs, 2):
        add(Case(f"run {f1} {v1} {f2} {v2}", ["run", "schelling", f1, v1, f2, v2]))
    # resume: every record damaged every way, and flags beside it
    for name in ("spec.json", "result.json", "reference.jsonl", "treatment.jsonl", "board.jsonl", "decisions.jsonl"):
        for how in ("folder", "garbage", "torn", "deep"):
            if how == "deep" and not name.endswith(".json"):
                continue
            add(Case(f"resume, {name} {how}", ["run", "--resume", "R"], setup=f"damage:{name}/{how}"))
    for how in ("empty",):
        add(Case("resume, spec.json empty", ["run", "--resume", "R"], setup=f"damage:spec.json/{how}"))
    for flag in (["--seed", "4"], ["--policy", "stay"], ["--out", "x"], ["--force"], ["schelling"], ["--rounds", "3"]):
        add(Case(f"resume with {flag[0]}", ["run", "--resume", "R", *flag]))
    for target in ("E", "notes.txt", "", "suite.yaml", "nowhere/deeper"):
        add(Case(f"resume {target!r}", ["run", "--resume", target]))
    add(Case("resume of a finished run keeps it", ["run", "--resume", "R"], ok=True))
    add(Case("resume of a killed run", ["run", "--resume", "R"], ok=True, setup="drop-result", replaces=("R",)))
    add(Case("run --force moves the old run aside", [*RUN, "--out", "R", "--force"], ok=True, replaces=("R",)))
    add(Case("run again without --force", [*RUN, "--out", "R"]))
    add(Case("run a fresh folder", [*RUN, "--out", "fresh"], ok=True))
    # --- landscape ---
    bad_land = {
        "--thresholds": ["abc", "", "2/0", "1e9", "1/2,", "99999999999999/1"],
        "--vacancies": ["abc", "", "-1", "2", "1/0"],
        "--seeds": ["1,1,1", "5-3", "-1", "a", "0-999999", "", "0-3,2", "3,3"],
        "--max-rounds": ["0", "-1", "1000000", "x"],
        "--size": ["1", "1000", "0", "x"],
        "--jobs": ["0", "1000", "-1"],
        "--out": [
            "notes.txt",
            "R",
            "E",
            "",
            "/dev/full",
            LONG + ".csv",
            "suite.yaml",
            "R/result.json",
            "R/result.json/l.csv",
        ],
        "--param": ["threshold=1/2", "size=10", "vacancy=0.1", "nope=1", "=="],
    }
    for flag, values in bad_land.items():
        for value in values:
            base = [a for i, a in enumerate(LAND) if not (flag in LAND and (a == flag or LAND[i - 1] == flag))]
            out_flag = [] if flag == "--out" else ["--out", "lb.csv"]
            add(Case(f"landscape {flag} {value[:20]!r}", [*base, flag, value, *out_flag]))
    for world in ("nope", "voter", ""):
        add(
            Case(
                f"landscape world {world!r}",
                ["landscape", world, "--thresholds", "1/2", "--vacancies", "0.2", "--out", "lw.csv"],
            )
        )
    add(Case("landscape fresh", [*LAND, "--out", "l.csv"], ok=True))
    add(Case("landscape --force over notes.txt", [*LAND, "--out", "notes.txt", "--force"], ok=True))
    # --- experiment ---
    suites = {
        "unknown world": _suite(world="nowhere"),
        "unknown controller": _suite(controller="nope"),
        "bad param": _suite(params={"threshld": "1/2"}),
        "huge size": _suite(params={"size": 5000}),
        "zero rounds": _suite(rounds=0),
        "rounds 1e8": _suite(rounds=10**8),
        "influence 300": _suite(influence=300),
        "bad objective": _suite(objective="nope"),
        "seeds 0": yaml.safe_dump({**SUITE, "seeds": 0}),
        "seeds dup": yaml.safe_dump({**SUITE, "seeds": [1, 2, 1]}),
        "seeds reversed": yaml.safe_dump({**SUITE, "seeds": "9-3"}),
        "seeds huge": yaml.safe_dump({**SUITE, "seeds": 10**7}),
        "repeats 0": yaml.safe_dump({**SUITE, "repeats": 0}),
        "repeats huge": yaml.safe_dump({**SUITE, "repeats": 10**6}),
        "no cases": yaml.safe_dump({**SUITE, "cases": []}),
        "cases not a list": yaml.safe_dump({**SUITE, "cases": "x"}),
        "unknown key": yaml.safe_dump({**SUITE, "sedes": 2}),
        "list doc": "- a\n- b\n",
        "scalar doc": "hello\n",
        "empty doc": "",
        "binary": "\x00\x01",
        "bad yaml": "name: [\n",
        "dup key top": _dup_key_suite(),
        "dup key case": "name: d\ncases:\n  - {world: schelling, world: voter, rounds: 2}\n",
        "dup key params": "name: d\ncases:\n  - {world: schelling, params: {size: 10, size: 12}, rounds: 2}\n",
        "self contrast": yaml.safe_dump({**SUITE, "contrasts": [["a", "a"]], "cases": [{**CASE, "name": "a"}]}),
        "contrast twice": yaml.safe_dump(
            {
                **SUITE,
                "contrasts": [["a", "b"], ["a", "b"]],
                "cases": [{**CASE, "name": "a"}, {**CASE, "name": "b", "params": {"size": 12}}],
            }
        ),
        "contrast unknown": yaml.safe_dump({**SUITE, "contrasts": [["a", "zz"]], "cases": [{**CASE, "name": "a"}]}),
        "same case twice": yaml.safe_dump({**SUITE, "cases": [CASE, CASE]}),
        "axes rounds dup": yaml.safe_dump({**SUITE, "axes": {"rounds": [2, 2]}}),
        "axes rounds huge": yaml.safe_dump({**SUITE, "axes": {"rounds": [2, 10**8]}}),
        "axes influence dup": yaml.safe_dump({**SUITE, "axes": {"influence": [1, 1]}}),
        "baseline llm": yaml.safe_dump({**SUITE, "baselines": ["llm"]}),
        "margin negative": yaml.safe_dump({**SUITE, "equivalence_margin": -1}),
        "error share 2": yaml.safe_dump({**SUITE, "max_policy_error_share": 2}),
    }
    for label, text in suites.items():
        add(Case(f"suite {label}", ["experiment", "bad.yaml", "--out", "E2"], suite_text=text))
    for out_dir in ("R", "", "notes.txt", LONG, "suite.yaml/E"):
        add(Case(f"experiment --out {out_dir[:20]!r}", ["experiment", "suite.yaml", "--out", out_dir]))
    for flags in (
        ["--jobs", "0"],
        ["--max-cost", "-1"],
        ["--max-cost", "nan"],
        ["--max-calls", "-1"],
        ["--address", "x"],
    ):
        add(Case(f"experiment {' '.join(flags)}", ["experiment", "suite.yaml", "--out", "E3", *flags]))
    for target in ("nowhere.yaml", "", "R", "notes.txt"):
        add(Case(f"experiment suite {target!r}", ["experiment", target, "--out", "E3"]))
    add(Case("experiment resume E", ["experiment", "suite.yaml", "--out", "E"], ok=True, replaces=("E",)))
    # --- report ---
    for d in ("R", "nowhere", "notes.txt", "", LONG):
        add(Case(f"report dir {d[:20]!r}", ["report", d]))
    for out_file in ("suite.yaml", "notes.txt", "E", "", "/dev/full", LONG + ".html", "R/result.json", "notes.txt/x"):
        add(Case(f"report --out {out_file[:20]!r}", ["report", "E", "--out", out_file]))
    for flags in (["--split"], ["--pairs", "nope"], ["--markdown", "--out", "x.md"], ["--markdown", "--pairs", "a"]):
        add(Case(f"report {' '.join(flags)}", ["report", "E", *flags]))
    add(Case("report E", ["report", "E"], ok=True, replaces=("E/report.html",)))
    add(Case("report E --markdown --split", ["report", "E", "--markdown", "--split"], ok=True))
    add(Case("report --force over the suite", ["report", "E", "--out", "suite.yaml", "--force"], ok=True))
    # --- animate ---
    for d in ("E", "nowhere", "", "notes.txt", LONG):
        add(Case(f"animate dir {d[:20]!r}", ["animate", d]))
    for out_file in ("notes.txt", "x.png", "E", "", "suite.yaml", "/dev/full", LONG + ".gif", "nowhere/x/../a.txt"):
        add(Case(f"animate --out {out_file[:20]!r}", ["animate", "R", "--out", out_file]))
    for fps in ("0", "nan", "1000", "-1", "x"):
        add(Case(f"animate --fps {fps}", ["animate", "R", "--out", "a.gif", "--fps", fps]))
    add(Case("animate a foreign fork.gif", ["animate", "R", "--out", "fork.gif"], setup="foreign-gif"))
    add(Case("animate --force", ["animate", "R", "--force"], ok=True, setup="foreign-gif"))
    add(Case("animate fresh", ["animate", "R", "--out", "a.gif"], ok=True))
    # --- new-world ---
    for name in ("", "A", "1a", "w" * 300, "class", "schelling", "json", "yaml", "pandas", "test", "my-world", "w w"):
        add(Case(f"new-world {name[:20]!r}", ["new-world", name]))
    for d in ("notes.txt", "/proc/self/nope", "", LONG, "R/result.json"):
        add(Case(f"new-world --dir {d[:20]!r}", ["new-world", "w3", "--dir", d]))
    add(Case("new-world fresh", ["new-world", "mytown", "--dir", "projects"], ok=True))
    # --- tasks, worlds, dashboard (refusals only: a good dashboard would serve) ---
    for world in ("nope", "", "schelling"):
        add(Case(f"tasks {world!r}", ["tasks", world]))
    add(Case("tasks crafting", ["tasks", "crafting"], ok=True))
    add(Case("worlds", ["worlds"], ok=True))
    add(Case("worlds extra", ["worlds", "extra"]))
    for flags in (
        ["--port", "0"],
        ["--port", "70000"],
        ["--run", "nowhere"],
        ["--run", "E"],
        ["--landscape", "nowhere.csv"],
        ["--allow-key-env", "sk-pasted-key-123456789"],
        ["--allow-base-url", "ftp://x"],
        ["--replay-dir", "notes.txt"],
        ["nope"],
    ):
        add(Case(f"dashboard {' '.join(flags)[:30]}", ["dashboard", *flags]))
    newest_cases(add)
    contained_cases(add)
    merged_cases(add)
    add(Case("no command", []))
    add(Case("unknown command", ["nope"]))
    return out


def newest_cases(add) -> None:
    """benchmark, report's leaderboard and analyses, export and task files."""
    # --- benchmark ---
    bad_bench = {
        "--policy": ["nope", "", "llm", "replay"],
        "--controller": ["nope", ""],
        "--model": ["gpt-4o", "", "openai:m"],
        "--tier": ["", "nope", "full"],
        "--seeds": ["\u00b2", "0-2000000", "", "5-3", "1,1", "a", "\u0663"],
        "--out": ["R", "E", "", LONG, "notes.txt", "/dev/full", "suite.yaml/x"],
        "--definition": ["nowhere.yaml", "", "notes.txt", "suite.yaml"],
        "--jobs": ["0", "100000"],
        "--executor": ["slurm"],
        "--address": ["x:1"],
        "--max-cost": ["nan", "-1"],
        "--max-calls": ["-1"],
        "--base-url": ["http://127.0.0.1:9/v1", ""],
        "--api-key-env": ["FUZZ_UNSET", "fuzz-pasted-key-123456x"],
        "--price-table": ["none.json", "notes.txt"],
        "--option": ["x", "=1", "temperature=1.0"],
        "--replay": ["B"],
        "--rates-from": ["nowhere", "notes.txt", ""],
        "--port": ["9000", "-1"],  # a person's page only: refused for the heuristic
    }
    for flag, values in bad_bench.items():
        for value in values:
            out_flag = [] if flag == "--out" else ["--out", "B2"]
            base = [a for i, a in enumerate(BENCH) if not (flag in BENCH and (a == flag or BENCH[i - 1] == flag))]
            add(Case(f"benchmark {flag} {value[:20]!r}", [*base, flag, value, *out_flag]))
    definitions = {
        "rounds 1e9": _definition(rounds=10**9),
        "reference bogus": _definition(reference="bogus"),
        "name a/b": _definition(name="a/b"),
        "name empty": _definition(name=""),
        "unknown key": _definition(wrld="x"),
        "unknown world": _definition(world="nowhere"),
        "bad param": _definition(params={"size": 100000}),
        "dup key": "name: d\nname: e\n" + yaml.safe_dump({k: v for k, v in DEFINITION.items() if k != "name"}),
        "seeds true": yaml.safe_dump({**DEFINITION, "tiers": {"quick": {"seeds": True}}}),
        "seeds unicode": yaml.safe_dump({**DEFINITION, "tiers": {"quick": {"seeds": "\u00b2"}}}),
        "seeds huge": yaml.safe_dump({**DEFINITION, "tiers": {"quick": {"seeds": "0-9999999"}}}),
        "no scenarios": yaml.safe_dump({**DEFINITION, "scenarios": []}),
        "scenario twice": yaml.safe_dump({**DEFINITION, "scenarios": DEFINITION["scenarios"] * 2}),
        "a list": "- 1\n- 2\n",
        "binary": "\x00\x01",
        "bad yaml": "name: [\n",
    }
    for label, text in definitions.items():
        argv = ["benchmark", "--definition", "bad.yaml", "--policy", "heuristic", "--out", "B2"]
        add(Case(f"benchmark definition {label}", argv, suite_text=text))
    replay = ["benchmark", "--definition", "def.yaml", "--policy", "replay"]
    for source in ("R", "E", "nowhere", "", "notes.txt"):
        add(Case(f"benchmark --replay {source!r}", [*replay, "--replay", source, "--out", "B3"]))
    for setup in (
        "bench:benchmark.json/garbage",
        "bench:benchmark.json/folder",
        "bench:table.csv/garbage",
        "bench:roles",
        "bench:table.csv/empty",
        "bench:other-rows",
    ):
        add(Case(f"benchmark --replay of {setup}", [*replay, "--replay", "B", "--out", "B3"], setup=setup))
        add(Case(f"benchmark resume of {setup}", [*BENCH, "--out", "B"], setup=setup))
        add(Case(f"leaderboard of {setup}", ["report", "B", "--leaderboard"], setup=setup))
    add(
        Case(
            "benchmark another controller into B",
            ["benchmark", "--definition", "def.yaml", "--policy", "stay", "--out", "B"],
        )
    )
    add(
        Case(
            "benchmark into B --allow-mixed --yes",
            [*BENCH, "--out", "B", "--allow-mixed", "--yes"],
            ok=True,
            replaces=("B",),
        )
    )
    add(Case("benchmark resume B", [*BENCH, "--out", "B"], ok=True, replaces=("B",)))
    add(Case("benchmark fresh", [*BENCH, "--out", "B2", "--seeds", "0", "--jobs", "1"], ok=True))
    add(Case("benchmark replay of B", [*replay, "--replay", "B", "--out", "B3"], ok=True))
    # --- report: the leaderboard and the analyses ---
    lead = ["report", "B", "--leaderboard"]
    for flags in (
        ["B"],
        ["R"],
        ["E"],
        ["nowhere"],
        ["--markdown"],
        ["--pairs", "x"],
        ["--split"],
        ["--no-split"],
        ["--agentworld"],
        ["--analysis", "swarm"],
        ["--out", "notes.txt"],
        ["--out", LONG + ".html"],
        ["--out", "B"],
        ["--html", "--out", "/dev/full"],
    ):
        add(Case(f"leaderboard {' '.join(flags)[:30]}", [*lead, *flags]))
    add(Case("leaderboard of R", ["report", "R", "--leaderboard"]))
    add(Case("leaderboard B", lead, ok=True))
    add(Case("leaderboard --html", [*lead, "--html"], ok=True))
    add(Case("leaderboard --out --force over notes", [*lead, "--out", "notes.txt", "--force"], ok=True))
    for flags in (
        ["--analysis", ""],
        ["--analysis", "nope"],
        ["--analysis", "swarm"],
        ["--agentworld", "--out", "x.html"],
        ["--agentworld", "--markdown"],
        ["--analysis", "swarm", "--pairs", "x"],
        ["--agentworld", "--html"],
        ["--agentworld", "--force"],
        ["--analysis", "swarm", "--split"],
    ):
        add(Case(f"report E {' '.join(flags)[:30]}", ["report", "E", *flags]))
    for d in ("R", "nowhere", "notes.txt", "S"):
        add(Case(f"report {d} --analysis swarm", ["report", d, "--analysis", "swarm"]))
    add(Case("report B --agentworld (no crafting pair)", ["report", "B", "--agentworld"]))
    add(
        Case(
            "report --analysis swarm of a torn pair",
            ["report", "E", "--analysis", "swarm"],
            setup="damage:result.json/torn",
        )
    )
    # --- export ---
    export = ["export", "S", "--format", "swarmbench"]
    for flags in (
        ["--out", "notes.txt"],
        ["--out", ""],
        ["--out", LONG],
        ["--out", "/proc/self/nope/x"],
        ["--out", "R"],
        ["--out", "suite.yaml/x"],
    ):
        add(Case(f"export --out {flags[1][:20]!r}", [*export, *flags]))
    for fmt in ("nope", "", "SwarmBench"):
        add(Case(f"export --format {fmt!r}", ["export", "S", "--format", fmt, "--out", "X"]))
    for run in ("R", "E", "nowhere", "", "notes.txt", LONG):
        add(Case(f"export run {run[:20]!r}", ["export", run, "--format", "swarmbench", "--out", "X"]))
    for how in ("torn", "garbage", "folder", "empty", "deep"):
        add(Case(f"export of a {how} result.json", [*export, "--out", "X"], setup=f"swarm:{how}"))
    add(Case("export S", [*export, "--out", "X"], ok=True))
    add(Case("export S --keep-prompts", [*export, "--out", "X", "--keep-prompts"], ok=True))
    # --- task files and their verifiers ---
    for label, code in VERIFIERS.items():
        files = {"task.yaml": TASK, "fz_criteria.py": code}
        fine = label == "fine"
        add(
            Case(
                f"tasks --check, verifier {label}", ["tasks", "crafting", "--check", "task.yaml"], ok=fine, files=files
            )
        )
        if not fine:
            run = ["run", "crafting", "--param", "task=task.yaml", "--param", "influence=1", "--out", "T"]
            add(Case(f"run a task whose verifier {label}", run, files=files))
    for target in ("nowhere.yaml", "", "notes.txt", "suite.yaml", "R"):
        add(Case(f"tasks --check {target!r}", ["tasks", "crafting", "--check", target]))
    add(Case("tasks --check on schelling", ["tasks", "schelling", "--check", "task.yaml"], files={"task.yaml": TASK}))
    # --- flags the tables above do not reach ---
    llm = [*RUN, "--policy", "llm", "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--out", "rl"]
    for flag, value in (
        ("--deadline", "nan"),
        ("--max-concurrency", "0"),
        ("--max-cost", "-1"),
        ("--max-retries", "-1"),
        ("--max-tokens", "0"),
        ("--stall-timeout", "0"),
        ("--structured", "nope"),
        ("--temperature", "9"),
        ("--timeout", "0"),
        ("--top-p", "2"),
        ("--price-table", "notes.txt"),
        ("--menu-seed", "-1"),
        ("--menu-cap", "1"),
        ("--sampling-seed", "-1"),
        ("--option", "x"),
        ("--prompt-style", "nope"),
        ("--api-key-env", "fuzz-pasted-key-123456x"),
    ):
        add(Case(f"run llm {flag} {value}", [*llm, flag, value]))
    add(Case("run --one-call with rule", [*RUN, "--one-call", "--out", "r5"]))
    # 0 candidates (only defer, null, rule, heuristic) and 0 rollouts (no cap) are valid planner settings
    for flag, value in (("--candidates", "-1"), ("--lookahead", "-1"), ("--rollouts", "-1"), ("--budget", "nan"),
                        ("--sweeps", "0"), ("--plan-seed", "-1")):  # fmt: skip
        add(Case(f"run oracle {flag} {value}", [*RUN, "--policy", "oracle", flag, value, "--out", "ro"]))
        add(Case(f"run rule {flag} {value}", [*RUN, flag, "1", "--out", "ro"]))
    add(Case("run --settle", [*RUN, "--settle", "--out", "r6"], ok=True))
    add(Case("animate --mp4 to a txt", ["animate", "R", "--out", "a.txt", "--mp4"]))
    for flags in (
        ["--policy", "nope"],
        ["--controller", "nope"],
        ["--model", "gpt4"],
        ["--seeds", "\u00b2"],
        ["--seeds", "0-9999999"],
        ["--executor", "slurm"],
        ["--yes", "--policy", "nope"],
        ["--allow-mixed", "--seeds", "x"],
    ):
        add(Case(f"experiment {' '.join(flags)}", ["experiment", "suite.yaml", "--out", "E4", *flags]))
    add(
        Case(
            "experiment seeds true",
            ["experiment", "bad.yaml", "--out", "E2"],
            suite_text=yaml.safe_dump({**SUITE, "seeds": True}),
        )
    )
    add(
        Case(
            "experiment --controller stay --seeds 0-1",
            ["experiment", "suite.yaml", "--out", "E5", "--policy", "stay", "--seeds", "0-1"],
            ok=True,
        )
    )
    # --- steerability and report --pilot-score (merged from main last: refusals only) ---
    steer = ["steerability", "s-int", "--definition", "def.yaml", "--seeds", "0"]
    for flags in (["--seeds", "\u00b2"], ["--tier", ""], ["--definition", "nowhere.yaml"], ["--jobs", "0"],
                  ["--executor", "slurm"], ["--address", "x:1"], ["--controllers", "nope"],
                  ["--oracle-option", "x"], ["--allow-mixed", "--out", "R"]):  # fmt: skip
        out_flag = [] if "--out" in flags else ["--out", "ST"]
        add(Case(f"steerability {' '.join(flags)}", [*steer, *flags, *out_flag]))
    for d in ("R", "nowhere"):
        add(Case(f"report {d} --pilot-score", ["report", d, "--pilot-score"]))
    # --- landscape leftovers ---
    add(Case("landscape duplicate thresholds", [*LAND[:2], "--thresholds", "1/2,0.5", *LAND[4:], "--out", "l2.csv"]))
    add(Case("landscape another grid over L", [*LAND[:2], "--thresholds", "1/3", *LAND[4:], "--out", "L.csv"]))
    add(Case("landscape the same grid over L", [*LAND, "--out", "L.csv"], ok=True, replaces=("L.csv",)))


#: hostile verifiers: each must end in `error: task: verifier ...` with nothing left behind
HOSTILE_VERIFIERS = {
    "prints the environment": "import os\nprint(dict(os.environ))\nraise RuntimeError(str(dict(os.environ)))\n",
    "reads its parent's environ": "import os\nprint(open(f'/proc/{os.getppid()}/environ', 'rb').read())\n",
    "writes outside": "open('/tmp/mam-fuzz-escaped', 'w').write('x')\n",
    "forks": "import os, time\ndef verify(t):\n    [os.fork() for _ in range(3)]\n    time.sleep(3600)\n",
    "starts a daemon": (
        "import subprocess\ndef verify(t):\n"
        "    subprocess.Popen(['setsid', 'sleep', '3601'])\n    raise RuntimeError('x')\n"
    ),
    "kills its parent": "import os\ndef verify(t):\n    os.kill(os.getppid(), 9)\n    return True\n",
}


def merged_cases(add) -> None:
    """The newest flags: a person's seat in the dashboard (refusals only: a good one would serve),
    the shipped ceiling's command, and the parity check against the pilot's code."""
    for flag, value in (
        ("--policy", "nope"),
        ("--controller", "nope"),
        ("--seed", "-1"),
        ("--seed", "x"),
        ("--rounds", "0"),
        ("--rounds", "1000000000"),
        ("--time-limit", "-5"),
        ("--time-limit", "abc"),
        ("--out", "notes.txt"),
        ("--out", "R"),
    ):
        add(Case(f"dashboard schelling {flag} {value}", ["dashboard", "schelling", flag, value]))
    v3 = str(Path(__file__).resolve().parents[1] / "suites" / "benchmark-v3.yaml")
    ceiling = ["ceiling", "--definition", v3, "--tier", "smoke", "--out", "C"]
    for flag, value in (
        ("--definition", "nowhere.yaml"),
        ("--definition", "notes.txt"),
        ("--tier", "nope"),
        ("--seeds", "a"),
        ("--seeds", "5-3"),
        ("--jobs", "0"),
        ("--executor", "slurm"),
        ("--address", "x:1"),
        ("--out", "R"),
        ("--out", "notes.txt"),
    ):
        argv = list(ceiling)
        if flag in argv:
            argv[argv.index(flag) + 1] = value
        else:
            argv += [flag, value]
        add(Case(f"ceiling {flag} {value}", argv))
    for flag, value in (("--world", "nope"), ("--seeds", "a"), ("--seeds", "9-0"), ("--param", "size=-1")):
        add(Case(f"parity pilot {flag} {value}", ["parity", "pilot", "--seeds", "0", flag, value]))
    add(Case("parity nobody", ["parity", "nobody", "--seeds", "0"]))


def contained_cases(add) -> None:
    """Hostile verifiers, task-file bounds, record versions, damaged and swapped snapshots, the
    planner's bounds and the flags that were silently ignored."""
    for label, code in HOSTILE_VERIFIERS.items():
        files = {"task.yaml": TASK, "fz_criteria.py": code}
        add(Case(f"tasks --check, verifier {label}", ["tasks", "crafting", "--check", "task.yaml"], files=files))
    run = ["run", "crafting", "--param", "task=task.yaml", "--param", "influence=1", "--out", "T"]
    add(
        Case(
            "run a task whose verifier starts a daemon",
            run,
            files={"task.yaml": TASK, "fz_criteria.py": HOSTILE_VERIFIERS["starts a daemon"]},
        )
    )
    fine = VERIFIERS["fine"]
    for label, text in {
        "budget 1e9": TASK.replace("budget: 3", "budget: 1000000000"),
        "budget twice": TASK.replace("budget: 3", "budget: 3\nbudget: 4"),
        "qty -1": TASK.replace("qty: 3, to:", "qty: -1, to:"),
        "5000-deep list": TASK + "survey: " + "[" * 5000 + "]" * 5000 + "\n",
        "ANSI name": TASK.replace("name: fz_task", 'name: "fz\\e[31mred"'),
    }.items():
        add(
            Case(
                f"tasks --check, task {label}",
                ["tasks", "crafting", "--check", "task.yaml"],
                files={"task.yaml": text, "fz_criteria.py": fine},
            )
        )
    from mam_bench.record_schema import RECORD_VERSION

    newer = str(RECORD_VERSION + 1)  # a version this mam-bench does not know yet
    for value in (newer, '"abc"', "null", "[]", "1e20", "-1", "0", "2.5", "true"):
        add(Case(f"resume, spec record_version {value}", ["run", "--resume", "R"], setup=f"spec-version:{value}"))
        add(
            Case(
                f"animate, result record_version {value}",
                ["animate", "R", "--out", "v.gif"],
                setup=f"result-version:{value}",
            )
        )
    add(Case("animate, a huge snapshot header", ["animate", "R", "--out", "h.gif"], setup="snapshots:R/huge"))
    add(
        Case(
            "resume, a huge snapshot header",
            ["run", "--resume", "R"],
            setup="snapshots:R/huge-unfinished",
        )
    )
    add(Case("animate, swapped snapshots", ["animate", "R", "--out", "h.gif"], setup="snapshots:R/swap"))
    add(Case("dashboard --run, swapped snapshots", ["dashboard", "--run", "R"], setup="snapshots:R/swap"))
    add(Case("dashboard --run, a huge snapshot header", ["dashboard", "--run", "R"], setup="snapshots:R/huge"))
    export = ["export", "S", "--format", "swarmbench", "--out", "X"]
    add(Case("export, swapped snapshots", export, setup="snapshots:S/swap"))
    add(Case("export, a huge snapshot header", export, setup="snapshots:S/huge"))
    add(Case("leaderboard of a truncated table.csv", ["report", "B", "--leaderboard"], setup="table-truncate"))
    oracle = ["run", "pursuit", "--rounds", "2", "--policy", "oracle", "--out", "ro"]
    for flag, value in (("--candidates", "1000000000"), ("--sweeps", "1000"), ("--rollouts", "1000000000"),
                        ("--lookahead", "1000000000"), ("--budget", "1e9")):  # fmt: skip
        add(Case(f"run oracle {flag} {value}", [*oracle, flag, value]))
    for option in ("candidates=1000000000", "candidates=true", "sweeps=1000", "rollouts=1e9"):
        add(Case(f"run oracle --option {option}", [*oracle, "--option", option]))
    add(
        Case(
            "run oracle --candidates 2 --option candidates=3",
            [*oracle, "--candidates", "2", "--option", "candidates=3"],
        )
    )
    add(Case("run oracle --executor ray without --jobs", [*oracle, "--executor", "ray"]))
    steer = ["steerability", "s-int", "--definition", "def.yaml", "--seeds", "500-501", "--out", "ST"]
    add(Case("steerability --controllers ''", [*steer, "--controllers", ""]))
    add(
        Case(
            "steerability --oracle-option without the oracle",
            [*steer, "--controllers", "stay", "--oracle-option", "candidates=2"],
        )
    )
    add(Case("steerability --oracle-option candidates=1e9", [*steer, "--oracle-option", "candidates=1000000000"]))
    add(Case("steerability --oracle-option candidates=true", [*steer, "--oracle-option", "candidates=true"]))
    for cmd in (["experiment", "suite.yaml", "--out", "E6"], [*BENCH, "--out", "B6"], steer):
        add(
            Case(
                f"{cmd[0]} --executor ray --address 127.0.0.1:1",
                [*cmd, "--executor", "ray", "--address", "127.0.0.1:1"],
            )
        )
    add(Case("benchmark --out B/pairs", [*BENCH, "--out", "B/pairs"]))
    add(Case("benchmark --out B/pairs/x", [*BENCH, "--out", "B/pairs/x"]))


def _definition(**scenario) -> str:
    return yaml.safe_dump({**DEFINITION, "scenarios": [{**DEFINITION["scenarios"][0], **scenario}]})


def command_flags() -> dict[str, set[str]]:
    """Every subcommand's long flags (but --help)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name: {o for a in p._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
        for name, p in sub.choices.items()
    }


def unused_flags(todo: list[Case]) -> dict[str, list[str]]:
    """Flags of each command that no case passes (every one should be fed something)."""
    used: dict[str, set[str]] = {}
    for c in todo:
        if c.argv:
            used.setdefault(c.argv[0], set()).update(a for a in c.argv if a.startswith("--"))
    flags = command_flags()
    return {cmd: sorted(f - used.get(cmd, set())) for cmd, f in flags.items() if f - used.get(cmd, set())}


def _suite(**case) -> str:
    return yaml.safe_dump({**SUITE, "cases": [{**CASE, **case}]})


def _dup_key_suite() -> str:
    return "name: d\nseeds: 2\nseeds: 3\ncases:\n  - {world: schelling, params: {size: 10}, rounds: 2}\n"


def make_fixture(root: Path) -> None:
    with _quiet():
        assert main([*RUN, "--out", str(root / "R")]) == 0
        (root / "suite.yaml").write_text(yaml.safe_dump(SUITE))
        assert main(["experiment", str(root / "suite.yaml"), "--out", str(root / "E"), "--jobs", "1"]) == 0
        (root / "def.yaml").write_text(yaml.safe_dump(DEFINITION))
        cwd = os.getcwd()
        os.chdir(root)
        try:
            assert main([*BENCH, "--out", "B", "--jobs", "1"]) == 0
            assert main([*S_RUN, "--out", "S"]) == 0
            assert main([*LAND, "--out", "L.csv"]) == 0
        finally:
            os.chdir(cwd)
    (root / "notes.txt").write_text("my notes\n")


@contextlib.contextmanager
def _quiet():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield err


def play(case: Case, fixture: Path, scratch: Path) -> Outcome:
    root = scratch / "sandbox"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(fixture, root, symlinks=True)
    apply_setup(root, case.setup)
    if case.suite_text is not None:
        (root / "bad.yaml").write_text(case.suite_text)
    for name, text in case.files.items():
        (root / name).write_text(text)
    before = tree(root)
    cwd = os.getcwd()
    os.chdir(root)
    tb = hang = False

    def alarm(signum: int, frame: object) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_SECONDS)
    try:
        with _quiet() as err:
            try:
                code = main(list(case.argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except Hang:
                code, hang = None, True
            except BaseException:  # noqa: BLE001 (a traceback is what we count)
                traceback.print_exc(file=err)
                code, tb = None, True
        text = err.getvalue()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(cwd)
    after = tree(root)
    kept = set(after.values())
    lost = []
    for rel, digest in before.items():
        if any(rel == r or rel.startswith(r + "/") for r in case.replaces):
            continue
        if after.get(rel) != digest and (digest in ("dir", "link") or digest not in kept):
            lost.append(rel)
    if tb or hang:
        wrong = False
    elif case.ok:
        wrong = code != 0
    else:
        wrong = code == 0 or "Traceback" in text
    unclear = not (tb or hang or wrong or case.ok) and not clear(text)
    return Outcome(case, code, text, tb, lost, wrong, hang, unclear)


#: a refusal that names what is wrong: the house's `error: FIELD: reason`, or argparse's
#: `PROG: error: argument --flag: ...` / `error: unrecognized arguments: ...` after its usage line
CLEAR = re.compile(r"(?m)^error: [^\s:][^:\n]*: \S|^usage: [\s\S]*: error: \S")


def clear(text: str) -> bool:
    return bool(CLEAR.search(text))


def command_of(case: Case) -> str:
    return case.argv[0] if case.argv else "(none)"


def main_fuzz() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="run only cases whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    args = ap.parse_args()
    todo = [c for c in cases() if not args.only or args.only in c.name]
    if args.list:
        for c in todo:
            print(c.name, "|", " ".join(c.argv)[:120])
        print(len(todo), "cases")
        for cmd, flags in unused_flags(todo).items():
            print(f"no case passes {cmd} {' '.join(flags)}")
        return 0
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    with tempfile.TemporaryDirectory(prefix="mam-fuzz-") as tmp:
        fixture, scratch = Path(tmp) / "fixture", Path(tmp) / "scratch"
        fixture.mkdir()
        scratch.mkdir()
        make_fixture(fixture)
        results = [play(c, fixture, scratch) for c in todo]
    table: dict[str, list[int]] = {}
    for r in results:
        row = table.setdefault(command_of(r.case), [0, 0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += int(r.traceback)
        row[2] += int(bool(r.lost))
        row[3] += int(r.wrong)
        row[4] += int(r.unclear)
        row[5] += int(r.hang)
    print("| command | inputs | tracebacks | data loss | silent wrong results | unclear errors | hangs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for cmd, (n, t, d, w, u, h) in sorted(table.items()):
        print(f"| {cmd} | {n} | {t} | {d} | {w} | {u} | {h} |")
    totals = [sum(v[i] for v in table.values()) for i in range(6)]
    print(f"| **all** | {' | '.join(f'**{t}**' for t in totals)} |")
    bad = [r for r in results if r.traceback or r.lost or r.wrong or r.hang or r.unclear]
    for r in bad:
        last = r.err.strip().splitlines()[-1:] or [""]
        print(
            f"FAIL {r.case.name}: exit {r.code}, tb={r.traceback}, lost={r.lost}, wrong={r.wrong}, "
            f"unclear={r.unclear}, hang={r.hang}: {last[0][:300]}"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main_fuzz())
