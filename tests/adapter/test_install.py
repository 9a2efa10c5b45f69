"""Acceptances 1 and 3 in a fresh venv (system site-packages for the dependencies, nothing from
this checkout on its path):

1. a regular wheel install run from a project with its own `models/` package lists every world
   and reproduces the README's Schelling seed-22 heuristic pair; the wheel's only top-level import
   name is `mam_bench`;
3. a user's plain Mesa model (tests/adapter/user_model/model.py, 37 lines) made steerable by
   steer.py (at most 30 non-blank lines), installed as its own package whose entry point also
   registers a heuristic and a renderer: `mam-bench run` with `heuristic` works, and the dashboard
   draws it in Chromium (screenshot in test-output/e2e/rumour-*.png).

Nothing is downloaded: wheels are built with --no-build-isolation and installed with --no-index.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.install import fresh_venv, wheel

ROOT = Path(__file__).resolve().parents[2]
USER = Path(__file__).resolve().parent / "user_model"
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _child_env() -> dict[str, str]:
    """The environment minus anything that would point a child at this checkout or the test venv
    (nothing is added): the installed wheel must stand on its own."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _run(*cmd: str | Path, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    env = _child_env()
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if check and proc.returncode != 0:
        raise AssertionError(f"{cmd} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def _wheel(source: Path, out: Path) -> Path:
    return wheel(source, out, env=_child_env())


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding a regular (non-editable) install of mam-bench and of the user's package."""
    tmp = tmp_path_factory.mktemp("install")
    # the data files pip writes into a venv's prefix when it installs the dependencies there
    # (widget registrations, Solara's offline CDN copy), as an ordinary install would have them
    py = fresh_venv(tmp / "venv", ("etc/jupyter", "share/jupyter", "share/solara"), env=_child_env())
    _run(py, "-m", "pip", "install", "--no-deps", "--no-index", _wheel(ROOT, tmp / "dist"))
    pkg = tmp / "user-package"
    (pkg / "rumour").mkdir(parents=True)
    for name in ("__init__.py", "model.py", "steer.py"):
        shutil.copy(USER / name, pkg / "rumour" / name)
    (pkg / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "rumour-world"\nversion = "0.1"\n\n'
        '[project.entry-points."mam_bench.worlds"]\nrumour = "rumour.steer:registration"\n\n'
        '[tool.setuptools]\npackages = ["rumour"]\n'
    )
    _run(py, "-m", "pip", "install", "--no-deps", "--no-index", _wheel(pkg, tmp / "user-dist"))
    return py


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A research project with its own `models` package (and a models.py-free layout)."""
    root = tmp_path_factory.mktemp("project")
    (root / "models").mkdir()
    (root / "models" / "__init__.py").write_text('"""The project\'s own models."""\nOWN = True\n')
    return root


def test_only_top_level_name_is_mam_bench(venv: Path) -> None:
    site = next((venv.parent.parent / "lib").glob("python3*/site-packages"))
    info = next(site.glob("mam_bench-*.dist-info"))
    assert (info / "top_level.txt").read_text().split() == ["mam_bench"]
    roots = {line.split(",")[0].split("/")[0] for line in (info / "RECORD").read_text().splitlines() if line}
    assert roots - {info.name, ".."} == {"mam_bench"}
    editable = [p.name for p in site.glob("__editable__*mam_bench*")]
    assert editable == []  # a regular install
    # and it is the wheel's package that imports, not the checkout's editable one
    where = _run(venv, "-c", "import mam_bench; print(mam_bench.__file__)", cwd=venv.parent).stdout.strip()
    assert where.startswith(str(site)), where


def test_worlds_all_available_from_a_project_with_its_own_models(venv: Path, project: Path) -> None:
    out = _run(venv, "-m", "mam_bench", "worlds", cwd=project).stdout
    listed = {line.split()[0] for line in out.splitlines() if line.strip()}
    assert {
        "schelling",
        "pursuit",
        "synchronization",
        "foraging",
        "flocking",
        "transport",
        "crafting",
        "boltzmann",
        "voter",
        "civil_violence",
        "rumour",
    } <= listed
    assert "unavailable" not in out


def test_schelling_pair_gives_the_readme_numbers(venv: Path, project: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("schelling seed 5 | controller heuristic") :]
    lift = re.search(r"lift ([+-]\d+\.\d+)", block).group(1)
    out = _run(
        venv, "-m", "mam_bench", "run", "schelling", "--seed", "5", "--policy", "heuristic", "--out", "o", cwd=project
    ).stdout
    assert f"lift {lift}" in out
    result = json.loads((project / "o" / "result.json").read_text())
    assert f"{result['lift']:+.4f}" == lift


def test_new_world_template_ships_in_the_wheel(venv: Path, project: Path) -> None:
    out = _run(venv, "-m", "mam_bench", "new-world", "toy_world", "--dir", project / "scaffold", cwd=project)
    assert (project / "scaffold" / "toy_world" / "toy_world" / "world.py").is_file(), out.stdout


def test_user_model_runs_with_its_heuristic(venv: Path, project: Path) -> None:
    steer = [line for line in (USER / "steer.py").read_text().splitlines() if line.strip()]
    assert len(steer) <= 30
    mam = venv.parent / "mam-bench"
    out = _run(
        mam,
        "run",
        "rumour",
        "--seed",
        "1",
        "--policy",
        "heuristic",
        "--influence",
        "4",
        "--out",
        "rumour-h",
        cwd=project,
    ).stdout
    result = json.loads((project / "rumour-h" / "result.json").read_text())
    assert result["controller"]["name"] == "heuristic" and result["treatment"]["audit"]["identity_holds"]
    assert result["treatment"]["rounds"] == 12 and "audit: accepted 48" in out
    null = _run(
        mam, "run", "rumour", "--seed", "1", "--policy", "rule", "--influence", "4", "--out", "rumour-r", cwd=project
    )
    assert json.loads((project / "rumour-r" / "result.json").read_text())["lift"] == 0.0, null.stdout


@pytest.fixture
def dashboard(venv: Path, project: Path, tmp_path: Path) -> Iterator[str]:
    from tests.e2e.conftest import free_port

    port = free_port()
    log = open(tmp_path / "dashboard.log", "w")
    env = _child_env()
    proc = subprocess.Popen(
        [str(venv), "-m", "mam_bench", "dashboard", "rumour", "--port", str(port)],
        cwd=project,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (tmp_path / "dashboard.log").read_text()
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < end, (tmp_path / "dashboard.log").read_text()[-3000:]
                time.sleep(0.5)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def test_dashboard_draws_the_user_model(dashboard: str) -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
    from tests.e2e.pages import boards_render, body_has_no_traceback, open_paired, round_is, step

    shots = Path(os.environ.get("MAM_TEST_OUTPUT", ROOT / "test-output")) / "e2e"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        open_paired(page, f"{dashboard}/?world=rumour&seed=1")
        body_has_no_traceback(page)
        boards_render(page)
        round_is(page, 0)
        step(page, 3)
        round_is(page, 3)
        boards_render(page)
        body_has_no_traceback(page)
        page.screenshot(path=str(shots / "rumour-round3.png"), full_page=True)
        browser.close()
