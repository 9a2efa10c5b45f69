"""The core install (no [llm] extra) runs experiments: nothing outside the LLM controller imports
LangChain, at module level or for a suite without an LLM case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import REPO

LLM_MODULES = ("langchain", "langchain_core", "langchain_openai", "llama_cpp")


def blocking(modules: tuple[str, ...]) -> str:
    """Python source that makes these top-level modules unimportable, as when never installed."""
    return f"""
import importlib.abc, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {modules!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Blocked())
"""


#: runs the CLI with LangChain (and llama.cpp) unimportable, as on a plain `pip install .`
WITHOUT_LLM = (
    blocking(LLM_MODULES)
    + """if __name__ == "__main__":  # (a spawned worker re-imports this file as __mp_main__)
    from mam_bench.cli import main
    sys.exit(main(sys.argv[1:]))
"""
)

SUITE = """name: core
seeds: 1
cases:
  - {world: schelling, controller: heuristic, objective: integrate, rounds: 2}
  - {world: crafting, controller: heuristic, objective: shortage, params: {task: forge_vanguard}, rounds: 2}
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


#: the extras' top-level modules, unimportable in the plain install's venv (as when never installed)
EXTRAS_BLOCKED = blocking((*LLM_MODULES, "solara", "ray"))


@pytest.mark.slow
@pytest.mark.e2e
def test_the_plain_install_runs_the_smoke_suite(tmp_path: Path) -> None:
    """`pip install .` of the wheel alone in a fresh venv (offline: the core's dependencies come from
    this interpreter's site directories, the extras' modules are made unimportable there), then
    `mam-bench experiment suites/smoke.yaml` with that venv's program."""
    from tests.support.install import fresh_venv, run, wheel

    py = fresh_venv(tmp_path / "venv")
    site_dir = next((tmp_path / "venv" / "lib").glob("python3*/site-packages"))
    (site_dir / "sitecustomize.py").write_text(EXTRAS_BLOCKED)
    run(py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel(REPO, tmp_path / "dist"))
    blocked = run(
        py,
        "-c",
        "import importlib.util, sys; import mam_bench.cli; print(importlib.util.find_spec('mam_bench').origin)",
        cwd=tmp_path,
    )
    assert str(REPO) not in blocked.stdout  # the wheel's mam_bench, not the checkout's
    done = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "mam-bench"), "experiment", str(REPO / "suites" / "smoke.yaml")]
        + ["--out", str(tmp_path / "E"), "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "E" / "table.csv").is_file()
    assert "langchain" not in done.stderr
