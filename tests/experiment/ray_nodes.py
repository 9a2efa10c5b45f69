"""Two Ray nodes on this machine, started as a user would (`ray start --head`, then a second node
joining it), each in its own process group so that stopping them touches no other Ray on the
machine (`ray stop` would stop every Ray of this user).

Ray listens on every interface whatever address it is given (it replaces 127.0.0.1 by the
machine's address), so the nodes and the driver share a fresh token: only they can join."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

RAY = str(Path(sys.executable).with_name("ray"))
#: the ports a node would otherwise take from fixed defaults, shared with any other Ray here
PORT_FLAGS = (
    "--node-manager-port",
    "--object-manager-port",
    "--dashboard-agent-listen-port",
    "--dashboard-agent-grpc-port",
    "--metrics-export-port",
    "--runtime-env-agent-port",
)


def free_port() -> int:
    with closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_node(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    ports = [f"{flag}={free_port()}" for flag in PORT_FLAGS]
    base = ["--num-cpus=1", "--object-store-memory=80000000", "--disable-usage-stats"]
    with open(log, "w") as fh:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [RAY, "start", "--block", *args, *base, *ports],
            stdout=fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )


def stop_node(proc: subprocess.Popen) -> None:
    """SIGTERM to the node's own process group (its raylet, store and workers), SIGKILL if it lingers."""
    for sig, grace in ((signal.SIGTERM, 15), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace)
            os.killpg(proc.pid, 0)  # the group outlives its leader while a child is left
        except (subprocess.TimeoutExpired, ProcessLookupError):
            pass
        else:
            time.sleep(1.0)


def wait_for_nodes(
    address: str, count: int, procs: list[subprocess.Popen], logs: list[Path], env: dict[str, str]
) -> None:
    """Until the cluster at `address` has `count` live nodes (or a node process exits)."""
    code = (
        "import ray, sys; ray.init(address=sys.argv[1], log_to_driver=False); "
        "print(sum(n['Alive'] for n in ray.nodes()))"
    )
    # a probe that finds the head not yet serving can hang in ray.init: on a loaded machine it is
    # given up and asked again, until the nodes answer or the deadline passes
    deadline = time.monotonic() + 360  # within the test's own limit (pytest-timeout, 600 s)
    while time.monotonic() < deadline:
        for proc, log in zip(procs, logs):
            if proc.poll() is not None:
                raise RuntimeError(f"a Ray node exited ({proc.returncode}): {log.read_text()[-2000:]}")
        try:
            probe = subprocess.run(
                [sys.executable, "-c", code, address], capture_output=True, text=True, timeout=120, env=env
            )
        except subprocess.TimeoutExpired:
            continue
        if probe.returncode == 0 and probe.stdout.strip() == str(count):
            return
        time.sleep(2.0)
    raise RuntimeError(f"the Ray cluster at {address} did not reach {count} nodes")


def cluster_env() -> dict[str, str]:
    """What the nodes and their driver share: token authentication with a token of their own."""
    return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32), "RAY_USAGE_STATS_ENABLED": "0"}


@contextmanager
def two_nodes(shared: dict[str, str]) -> Iterator[str]:
    """The address of a head and a second node, both stopped on exit whatever happened; `shared`
    (from cluster_env) is the environment the driver must carry too."""
    env = {**os.environ, **shared}
    # a short path: Ray's unix sockets live under it and their paths are limited to ~100 bytes
    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    address = f"127.0.0.1:{free_port()}"
    procs: list[subprocess.Popen] = []
    logs = [temp / "head.log", temp / "second.log"]
    try:
        head = ["--head", f"--port={address.split(':')[1]}", "--include-dashboard=false", f"--temp-dir={temp}"]
        head += [f"--ray-client-server-port={free_port()}"]
        procs.append(start_node(head, logs[0], env))
        wait_for_nodes(address, 1, procs, logs[:1], env)
        procs.append(start_node([f"--address={address}"], logs[1], env))
        wait_for_nodes(address, 2, procs, logs, env)
        yield address
    finally:
        for proc in reversed(procs):
            stop_node(proc)
        shutil.rmtree(temp, ignore_errors=True)
