"""Browser fixtures: dashboard servers on free ports (started and stopped here) and headless
Debian chromium driven by Playwright. Screenshots go to test-output/e2e/."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DashboardServer:
    """`mam-bench dashboard ...` in its own process group, so stopping it stops Solara too."""

    def __init__(self, *args: str, log: Path, cwd: Path = ROOT):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(log, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mam_bench", "dashboard", *args, "--port", str(self.port)],
            cwd=cwd,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait()

    def _wait(self, timeout: float = 90) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dashboard exited early, see {self.log.name}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"dashboard did not answer within {timeout}s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def worker_log(shots: Path, stem: str) -> Path:
    """A server log of this test process: under pytest-xdist each worker starts its own session
    servers, which must not write (and read back) one another's log."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return shots / (f"{stem}-{worker}.log" if worker else f"{stem}.log")


@pytest.fixture(scope="session")
def shots() -> Path:
    out = Path(os.environ.get("MAM_TEST_OUTPUT", ROOT / "test-output")) / "e2e"
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture(scope="session")
def landscape_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small landscape written by the real command."""
    out = tmp_path_factory.mktemp("landscape") / "landscape.csv"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mam_bench",
            "landscape",
            "schelling",
            "--thresholds",
            "1/2,3/4",
            "--vacancies",
            "1/10,1/4",
            "--seeds",
            "0-1",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env=dict(os.environ),
    )
    return out


@pytest.fixture(scope="session")
def recorded_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.e2e.recording import record_schelling

    out = tmp_path_factory.mktemp("recorded") / "schelling-llm"
    # a thread of its own: Playwright's sync API may already run an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(record_schelling, out).result()
    return out


@pytest.fixture(scope="session")
def server(landscape_csv: Path, shots: Path) -> Iterator[DashboardServer]:
    srv = DashboardServer("schelling", "--landscape", str(landscape_csv), log=worker_log(shots, "server"))
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def replay_server(recorded_run: Path, shots: Path) -> Iterator[DashboardServer]:
    srv = DashboardServer("--run", str(recorded_run), log=worker_log(shots, "replay-server"))
    yield srv
    srv.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """One Chromium for this package's tests. Package scope, not session: Playwright's sync API
    keeps an event loop running in the main thread while it lives, and later tests call
    asyncio.run."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian chromium is missing: apt-get install chromium"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
