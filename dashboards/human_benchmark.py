"""A person plays a benchmark (`mam-bench benchmark --controller human`): the page is the executor.

The benchmark runs through the experiment's own runner (table, resume, summary, manifest), with
`SeatExecutor` in place of a process pool: it serves the dashboard once, and each pair it is given
is written to the folder's `seat.json` (the pair's spec, its run folder and where it stands in the
benchmark: "scenario 3 of 26, seed 1000"). The page plays that pair as a human session
(`HumanSession` records into the pair's folder, which resumes a pair stopped halfway) and writes
its `result.json` at the horizon; the executor hands that result to the runner, which appends the
table row and gives the next pair. Stopping the command keeps every finished pair; the same
command resumes.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.experiment.executors import PairFailed
from mam_bench.records import write_whole

#: the pair the page plays now (or `finished`), in the benchmark's folder
SEAT = "seat.json"
#: how often the executor looks for the pair's result.json, in seconds
POLL = 0.2
#: at the end, how long the server waits for an open page to show that the benchmark is played
SHOWN = 30.0
#: and then how long it leaves the page's last message to reach the browser
GRACE = 3.0


def progress_of(bench: Any, entry: Any, suite: Any) -> dict[str, dict[str, Any]]:
    """pair_id -> where the pair stands in the benchmark (scenario n of N, seed, pair n of N).
    Each pair's scenario is the one the benchmark's own score gives its case (`roles`)."""
    from mam_bench.benchmark.definition import roles
    from mam_bench.experiment.suite import pairs_of

    names = [s.name for s in bench.scenarios]
    role_of = roles(bench, entry, suite)
    pairs = pairs_of(suite)
    out = {}
    for i, pair in enumerate(pairs, 1):
        scenario = role_of[pair.case.content_key()[:16]][0]["scenario"]
        s = bench.scenarios[names.index(scenario)]
        out[pair.pair_id] = {
            "scenario": scenario,
            "world": s.world,
            "objective": s.objective,
            "scenario_index": names.index(scenario) + 1,
            "scenarios": len(names),
            "seed": pair.seed,
            "seed_index": list(entry.seeds).index(pair.seed) + 1,
            "seeds": len(entry.seeds),
            "pair_index": i,
            "pairs": len(pairs),
        }
    return out


def progress_text(job: dict[str, Any]) -> str:
    p = job["progress"]
    return (
        f"scenario {p['scenario_index']} of {p['scenarios']}, seed {p['seed']}: {p['scenario']} "
        f"({p['world']}, {p['objective']}) | seed {p['seed_index']} of {p['seeds']} | "
        f"pair {p['pair_index']} of {p['pairs']}"
    )


def read_seat(path: Path | str) -> dict[str, Any] | None:
    """The seat file as the page reads it (None while there is none, or mid-write)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def check_port(port: int) -> None:
    if not 0 < port < 65536:
        raise ConfigError("port", f"{port} is not a TCP port")
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: a closed one's port is free
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            raise ConfigError("port", f"127.0.0.1:{port} is taken; give another --port") from None


class SeatExecutor:
    """One pair at a time, played by a person on the page this executor serves."""

    slots = 1

    def __init__(self, out: Path, progress: dict[str, dict[str, Any]], port: int):
        from mam_bench.child_process import die_with_parent
        from mam_bench.commands.dashboard import server_command, server_env, wait_until_serving
        from mam_bench.dashboards.config import ENV_SEAT

        self.seat = out.resolve() / SEAT
        self.progress = progress
        self.jobs: dict[str, tuple[dict[str, Any], float]] = {}
        self.finished = 0
        first = next(iter(progress.values()), {"world": ""})
        env = server_env(first["world"], None, None)  # the world of no pair yet: the page waits for one
        env[ENV_SEAT] = str(self.seat)
        self.proc = subprocess.Popen(
            server_command(port),
            env=env,
            start_new_session=True,  # its own process group: stopping the benchmark stops all of Solara
            preexec_fn=partial(die_with_parent, os.getpid()),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_until_serving(self.proc, port):
            self.shutdown()
            raise RuntimeError("the dashboard server did not start")
        print(f"play the benchmark at http://127.0.0.1:{port}/", file=sys.stderr, flush=True)

    def submit(self, job: dict[str, Any]) -> str:
        pid = job["pair_id"]
        shown = {**job, "progress": self.progress[pid], "finished_pairs": self.finished}
        write_whole(self.seat, json.dumps(shown, indent=2) + "\n")
        self.jobs[pid] = (job, time.monotonic())
        return pid

    def wait(self, handles: list[str], timeout: float) -> list[tuple[Any, Any, Any]]:
        end = time.monotonic() + timeout
        while True:
            out = []
            for pid in handles:
                job, started = self.jobs[pid]
                result = read_seat(Path(job["out"]) / "result.json")
                if result is not None:
                    result["_wall_seconds"] = time.monotonic() - started  # the person's time on the pair
                    result["_worker"] = {"host": socket.gethostname(), "pid": self.proc.pid, "seat": "human"}
                    self.jobs.pop(pid)
                    self.finished += 1
                    out.append((pid, result, None))
                elif self.proc.poll() is not None:
                    out.append((pid, None, PairFailed("the page's server stopped before the pair was played")))
            if out or time.monotonic() >= end:
                return out
            time.sleep(POLL)

    def shutdown(self) -> None:
        from mam_bench.commands.dashboard import stop_server

        if self.proc.poll() is None and not self.jobs:  # the page says so before it goes
            write_whole(self.seat, json.dumps({"finished": True, "finished_pairs": self.finished}) + "\n")
            end = time.monotonic() + SHOWN
            while time.monotonic() < end and not (read_seat(self.seat) or {}).get("shown"):
                time.sleep(POLL)
            if time.monotonic() < end:  # drawn on the server: its message is still on the way to the browser
                time.sleep(GRACE)
        stop_server(self.proc)
