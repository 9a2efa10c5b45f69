"""The guide's Python blocks are complete: each is saved under the file name its first line gives
and run as a script in a fresh folder, in the order the guide shows them, imports and all."""

import subprocess
import sys
from pathlib import Path

from tests.docs.markdown_blocks import ROOT, blocks

GUIDE = ROOT / "docs" / "steer-your-own-model.md"


def test_guide_blocks_run_as_written(tmp_path: Path) -> None:
    python = [b for b in blocks(GUIDE) if b.lang == "python"]
    assert len(python) >= 5
    for block in python:
        first = block.text.splitlines()[0]
        assert first.startswith("# ") and first.endswith(".py"), f"line {block.line}: name the file it is"
        script = tmp_path / first[2:]
        script.write_text(block.text + "\n")
    for block in python:
        script = block.text.splitlines()[0][2:]
        done = subprocess.run([sys.executable, script], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, f"{GUIDE.name}:{block.line} ({script}):\n{done.stderr}"
    # the registration names what the other blocks define
    code = (
        "from mam_bench.registry import load\n"
        "from registration import registration as r\n"
        "assert load(r.world).name == 'my_voter'\n"
        "assert load(r.heuristic).name == 'heuristic'\n"
        "from voter_world import VoterWorld\n"
        "assert r.renderer is None and VoterWorld.state_colors  # the named legend, kept\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_guide_heuristic_steers_the_guide_world(tmp_path: Path) -> None:
    """The guide's world and heuristic, together, give the lift the guide's numbers come from."""
    for block in blocks(GUIDE):
        if block.lang == "python":
            (tmp_path / block.text.splitlines()[0][2:]).write_text(block.text + "\n")
    code = (  # `python -c` imports the guide's files from its working folder
        "from mam_bench.runner import PairSpec, prepare, run_pair\n"
        "from voter_world import VoterWorld\n"
        "from voter_heuristic import VoterHeuristic\n"
        "spec = PairSpec.build(world='my_voter', seed=4, controller='heuristic', influence=3)\n"
        "r = run_pair(spec, None, controller=VoterHeuristic(VoterWorld, 'spread'), prep=prepare(spec, VoterWorld))\n"
        "print(f\"{r['lift']:+.4f}\")\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "+0.9000"
