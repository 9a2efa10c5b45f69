"""The core install (no [llm] extra) runs experiments: nothing outside the LLM controller imports
LangChain, at module level or for a suite without an LLM case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import REPO

#: runs the CLI with LangChain (and llama.cpp) unimportable, as on a plain `pip install .`
WITHOUT_LLM = """
import importlib.abc, sys
class NoLLM(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("langchain", "langchain_core", "langchain_openai", "llama_cpp"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NoLLM())
if __name__ == "__main__":  # (a spawned worker re-imports this file as __mp_main__)
    from mam_bench.cli import main
    sys.exit(main(sys.argv[1:]))
"""

SUITE = """name: core
seeds: 1
cases:
  - {world: schelling, policy: heuristic, objective: integrate, rounds: 2}
  - {world: crafting, policy: heuristic, objective: shortage, params: {task: forge_vanguard}, rounds: 2}
"""


def test_the_core_reads_llm_accounting_and_secrets_without_langchain(tmp_path: Path) -> None:
    """What `experiment` and its workers import from the LLM package for any suite."""
    code = WITHOUT_LLM.split("if __name__")[0] + (
        "import mam_bench.steering.llm\n"
        "from mam_bench.pricing import PriceTable\n"
        "from mam_bench.secrets import secrets_in_env\n"
        "from mam_bench.response_cache import check_cache_path\n"
        "import mam_bench.commands.experiment, mam_bench.experiment.executors\n"
        "print(sorted(m for m in sys.modules if m.startswith('langchain')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]"


@pytest.mark.slow
def test_a_heuristic_suite_runs_with_langchain_unimportable(tmp_path: Path) -> None:
    script = tmp_path / "no_llm.py"
    script.write_text(WITHOUT_LLM)
    suite = tmp_path / "core.yaml"
    suite.write_text(SUITE)
    done = subprocess.run(
        [sys.executable, str(script), "experiment", str(suite), "--out", str(tmp_path / "E"), "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "E" / "table.csv").is_file()
    assert "langchain" not in done.stderr


@pytest.mark.slow
@pytest.mark.e2e
def test_the_plain_install_runs_a_heuristic_suite(tmp_path: Path) -> None:
    """`pip install .` (no extras) in a fresh venv, through bench/slim_install.py (PyPI, pip's own
    cache), then `mam-bench experiment` on a heuristic suite with that venv's program."""
    keep = tmp_path / "slim"
    built = subprocess.run(
        [sys.executable, str(REPO / "bench" / "slim_install.py"), "--keep", str(keep)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert "langchain present" not in built.stdout and "slim install: OK" in built.stdout
    suite = tmp_path / "core.yaml"
    suite.write_text(SUITE)
    done = subprocess.run(
        [str(keep / "venv" / "bin" / "mam-bench"), "experiment", str(suite), "--out", str(tmp_path / "E")],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "E" / "table.csv").is_file()
