"""Stopping `mam-bench dashboard` by its PID (even with kill -9) stops the Solara server too (its
port is freed; the wait is generous, since load slows a shutdown, not its outcome), and Solara's
POST routes refuse a page from another origin like the websocket."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import REPO


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serving(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _group_alive(leader: int) -> bool:
    """Whether any process of the command's children's groups is alive (Solara runs in its own)."""
    children = Path(f"/proc/{leader}/task/{leader}/children")
    return bool(children.exists() and children.read_text().split())


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_signal_to_the_command_frees_the_port(sig, tmp_path):
    port = _free_port()
    log = open(tmp_path / "dashboard.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mam_bench", "dashboard", "schelling", "--port", str(port)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env=dict(os.environ),
    )
    children: list[str] = []
    try:
        for line in proc.stdout:  # our line comes once the server answers (Solara's own lines before it)
            if "dashboard: http://127.0.0.1" in line:
                break
        assert proc.poll() is None, (tmp_path / "dashboard.log").read_text()
        assert _serving(port)
        assert _group_alive(proc.pid)
        children += Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        proc.send_signal(sig)  # SIGKILL too: nothing of ours runs then, the kernel stops the child
        proc.wait(timeout=30)
        for _ in range(600):  # at most 60 s
            if not _serving(port):
                break
            time.sleep(0.1)
        assert not _serving(port), "the Solara child still serves after its command was stopped"
    finally:
        for pid in children:  # a failed test leaves no server behind
            try:
                os.killpg(int(pid), signal.SIGKILL)
            except OSError:
                pass
        if proc.poll() is None:  # TERM first: it stops the server with the command
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def test_the_post_routes_check_the_origin(monkeypatch):
    from starlette.testclient import TestClient

    from mam_bench.dashboards.security import install_origin_check

    install_origin_check()
    from solara.server import starlette as server

    client = TestClient(server.app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False)
    for route in ("close", "evict"):
        r = client.post(f"/_solara/api/{route}/k-none", headers={"Origin": "http://evil.example"})
        assert r.status_code == 403, route
        r = client.post(f"/_solara/api/{route}/k-none", headers={"Origin": "null"})
        assert r.status_code == 403, route
        r = client.post(f"/_solara/api/{route}/k-none", headers={"Origin": "http://127.0.0.1:8765"})
        assert r.status_code != 403, route
