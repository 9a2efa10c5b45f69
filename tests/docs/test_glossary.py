"""A newcomer can look up every word the README's first command prints, and finds every world
`mam-bench worlds` lists in the README's "What is in the box"."""

from __future__ import annotations

import re

from mam_bench.commands.run import GLOSSARY
from mam_bench.registry import world_names
from tests.docs.markdown_blocks import ROOT, blocks

README = ROOT / "README.md"


def glossary_terms() -> set[str]:
    """The first cell of every glossary table row, split at commas, backticks dropped."""
    terms = set()
    for line in (ROOT / GLOSSARY).read_text().splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            first = line.split("|")[1]
            terms |= {t.strip().strip("`") for t in first.split(",")}
    return terms


def first_command_output() -> list[str]:
    """What the README shows the first command printing (the runnable block of its command, which
    tests/docs/test_site.py checks against a real run)."""
    command = blocks(README)[0].text.split("&& ")[-1].replace(".venv/bin/", "")
    block = next(b for b in blocks(README) if b.runnable and b.commands == [command])
    return block.expected


def printed_terms(lines: list[str]) -> set[str]:
    """The words of the output a reader has to know: column heads, statuses, every label before a
    figure or a colon, and the named controllers."""
    head = next(i for i, s in enumerate(lines) if s.split()[:1] == ["status*"])
    terms = {w.rstrip("*") for w in lines[head].split()}
    for line in lines[head + 1 : head + 3]:
        label, status = line.split()[:2]
        terms |= {label, status}
    for line in lines[1:]:  # the first names the influence ids (below)
        if line.startswith("records:"):
            terms.add("records")
        if line.startswith(("reading:", "records:", "* ")):  # a sentence, a path, the pointer here
            continue
        terms |= set(re.findall(r"([a-z_]+) [+-]?\d", line))  # accepted 15, lift -0.0174
        terms |= set(re.findall(r"^([a-z_]+)(?: \(.*?\))?:", line))  # audit:, baselines (...):
        terms |= set(re.findall(r"\| (controller|objective) ", line))
        terms |= set(re.findall(r"\| controller ([a-z_]+)", line))  # the controller: heuristic
        terms |= set(re.findall(r"([a-z_]+) lift [+-]", line))  # the baselines: stay lift +0.0047
        terms |= set(re.findall(r"\(([a-z_]+) \d+\)", line))  # (occupied 51)
    if lines[0].startswith("influence ids"):
        terms |= {"influence ids", "world default"}
    return terms - {"seed", "x"}


def test_every_term_the_first_command_prints_is_in_the_glossary() -> None:
    lines = first_command_output()
    terms = printed_terms(lines)
    assert {"status", "lift", "delta", "baselines", "audit", "stay", "mimic"} <= terms, terms
    statuses = {line.split()[1] for line in lines if line.split()[:1] in (["reference"], ["treatment"])}
    assert statuses and statuses <= terms
    missing = sorted(terms - glossary_terms())
    assert not missing, f"printed but not in {GLOSSARY}: {missing}"
    assert lines[-1] == f"* statuses and the other terms: {GLOSSARY}"  # the status column points there


def test_every_status_a_world_names_is_in_the_glossary() -> None:
    from mam_bench.status import Status, Validity

    assert {s.value for s in (*Status, *Validity)} <= glossary_terms()


def test_the_readme_reads_the_first_result_beside_it() -> None:
    """The sentence under the printed block says what the printed lift means, with its figures."""
    text = README.read_text()
    lines = first_command_output()
    said = next(line for line in lines if line.startswith("reading:"))
    lift = re.search(r"lift ([+-]\d\.\d{4})", said).group(1)
    after = text[text.index(said) :]
    paragraph = after[after.index("```") : after.index("\n\n", after.index("```") + 4)]
    assert lift in paragraph, "the README's reading of the first run names its lift"
    assert "docs/glossary.md" in text


def test_what_is_in_the_box_lists_every_world() -> None:
    text = README.read_text()
    box = text[text.index("## What is in the box") :]
    box = box[: box.index("\n\n", box.index("|---"))]
    listed = {m for m in re.findall(r"^\| [^|]+ \| `([a-z_]+)` \|", box, flags=re.M)}
    assert listed == set(world_names())


#: the benchmark's words a leaderboard section may use in its prose; each one it uses must be defined
BENCHMARK_WORDS = (
    "oracle",
    "greedy",
    "placebo",
    "best placebo",
    "headroom",
    "Fieller",
    "tier",
    "calibration seeds",
    "held-out seeds",
    "scored",
    "ranked",
    "v1 score",
)


def leaderboard_terms() -> set[str]:
    """The README's leaderboard section: its table's column heads (less the worlds, which "What is
    in the box" lists), its controllers, the controllers it names in backticks, and the benchmark
    words of its prose."""
    from mam_bench.registry import controller_names

    text = README.read_text()
    start = text.index("## Leaderboard")
    section = text[start : text.index("\n## ", start + 1)]
    table = [line for line in section.splitlines() if line.startswith("| ")]
    head = [c.strip() for c in table[0].strip("|").split("|")]
    terms = {re.sub(r"\s*\[.*\]$", "", c) for c in head} - set(world_names())
    terms |= {line.split("|")[1].strip() for line in table[1:] if not line.startswith("|---")}
    named = set(re.findall(r"`([a-z_]+)`", section))
    terms |= named & {*controller_names(), "oracle", "greedy", "stay", "mimic", "rule"}
    prose = re.sub(r"\s+", " ", section).lower()
    terms |= {w for w in BENCHMARK_WORDS if re.search(rf"\b{re.escape(w.lower())}s?\b", prose)}
    return terms


def test_every_term_of_the_readme_leaderboard_is_in_the_glossary() -> None:
    terms = leaderboard_terms()
    assert {"score", "controller", "invalid", "oracle", "placebo", "headroom", "stay", "mimic"} <= terms, terms
    missing = sorted(terms - glossary_terms())
    assert not missing, f"the README's leaderboard uses them, {GLOSSARY} does not define them: {missing}"


def test_the_glossary_defines_the_v2_score_as_the_code_does() -> None:
    """The score entry is v2's (best placebo to oracle, not clipped), not v1's; its words match the
    leaderboard's own definition line."""
    from mam_bench.benchmark.leaderboard_v2 import DEFINITION_V2

    row = next(line for line in (ROOT / GLOSSARY).read_text().splitlines() if line.startswith("| score |"))
    assert "best placebo" in row and "oracle" in row and "not clipped" in row
    assert "not clipped" in DEFINITION_V2 and "0 = the best placebo, 1 = the oracle" in DEFINITION_V2
    assert "0 = the best placebo, 1 = the oracle" in row
