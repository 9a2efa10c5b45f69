"""Where pairs run: `local` (a process pool on this machine) or `ray` (tasks on a Ray cluster).

Both run the same `run_job`, a plain function of a JSON-able job, so results cannot depend on
the executor; only wall times differ.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import socket
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Any, Protocol

from mam_bench.child_process import die_with_parent
from mam_bench.errors import ConfigError
from mam_bench.limits import MAX_JOBS

#: a pool worker is replaced after this many pairs, so nothing a pair leaks can pile up
RECYCLE_AFTER = 50


class PairFailed(RuntimeError):
    """Whatever went wrong in a worker, as plain text: always picklable, never breaks the pool.

    `backend` marks a failed LLM backend (exit 3) as opposed to bad input or a bug."""

    def __init__(self, message: str, backend: bool = False):
        super().__init__(message)
        self.message = message
        self.backend = backend

    def __reduce__(self) -> tuple:
        return (type(self), (self.message, self.backend))


def run_job(job: dict[str, Any]) -> Any:
    """Run one pair into its own run directory (returns runner.run_pair's result), or the function
    a job names in `call` ("module:function", e.g. a planner's rollouts) on the job."""
    from mam_bench.runner import PairSpec, run_pair

    try:
        if "call" in job:
            module, name = job["call"].split(":")
            return getattr(importlib.import_module(module), name)(job)
        spec = PairSpec.build(**job["spec"])
        result = run_pair(spec, job["out"])
        result["_worker"] = {"host": socket.gethostname(), "pid": os.getpid()}
        return result
    except Exception as exc:  # noqa: BLE001 - any error, even an unpicklable one, becomes text
        from mam_bench.secrets import known_secrets

        text = f"{type(exc).__name__}: {exc}"
        for secret in known_secrets():
            text = text.replace(secret, "[key]")
        raise PairFailed(text[:2000], backend=type(exc).__name__ == "BackendFailed") from None


def _die_with_parent(parent: int, environ: dict[str, str] | None = None) -> None:
    """Pool initializer: the kernel kills this worker when its parent dies (Linux), and a worker
    whose parent is already gone exits at once, so killing the experiment leaves no orphans.
    It also takes the experiment's environment as it is now: a fork server started earlier in
    the same process carries the environment of that moment (e.g. without a key set since)."""
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    die_with_parent()
    from mam_bench.sandbox import not_dumpable

    not_dumpable()  # it holds the key: unreadable through /proc to a task's verifier it runs
    import threading
    import time

    def watch() -> None:  # the direct parent is the fork server: watch the experiment itself too
        while True:
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            time.sleep(2.0)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


class Executor(Protocol):
    slots: int

    def submit(self, job: dict[str, Any]) -> Any: ...

    def wait(
        self, handles: list[Any], timeout: float
    ) -> list[tuple[Any, dict[str, Any] | None, BaseException | None]]: ...

    def shutdown(self) -> None: ...


class LocalExecutor:
    """A process pool. It asks for fork (or spawn where fork is missing) explicitly, because
    importing mesa.batch_run switches the global start method to spawn."""

    def __init__(self, jobs: int | None = None, recycle_after: int = RECYCLE_AFTER):
        self.slots = jobs or os.cpu_count() or 1
        methods = multiprocessing.get_all_start_methods()
        # recycling workers (max_tasks_per_child) needs a non-fork start; forkserver is the cheap one
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if ctx.get_start_method() == "forkserver":  # imported once by the server, not once per worker
            ctx.set_forkserver_preload(["mam_bench.runner", "mam_bench.experiment.executors"])
        self._pool = ProcessPoolExecutor(
            self.slots,
            mp_context=ctx,
            max_tasks_per_child=recycle_after,
            initializer=_die_with_parent,
            initargs=(os.getpid(), dict(os.environ)),
        )

    def submit(self, job: dict[str, Any]) -> Future:
        return self._pool.submit(run_job, job)

    def wait(self, handles: list[Future], timeout: float) -> list[tuple[Any, Any, Any]]:
        done, _ = wait_futures(handles, timeout=timeout, return_when=FIRST_COMPLETED)
        out = []
        for f in done:
            exc = f.exception()
            out.append((f, None if exc else f.result(), exc))
        return out

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def run_on_node(job: dict[str, Any]) -> Any:
    """run_job as a Ray task; a pair's result also names the Ray node that ran it."""
    import ray

    result = run_job(job)
    if "call" not in job:
        result["_worker"]["node"] = ray.get_runtime_context().get_node_id()
    return result


#: seconds a Ray address gets to accept a connection before it is refused
CONNECT_SECONDS = 10.0


def check_address(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """A Ray cluster's address must accept a TCP connection within `seconds` (`auto` is found by
    Ray itself): an unreachable one is `error: address: ...` before any folder is written, never
    a wait without end."""
    if address == "auto":
        return
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError("address", f"expected HOST:PORT, ray://HOST:PORT or auto, got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=seconds):
            pass
    except OSError as exc:
        reason = "no answer" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise ConfigError(
            "address", f"cannot reach a Ray cluster at {address} within {seconds:g} s ({reason})"
        ) from None


class RayExecutor:
    """Ray tasks, one CPU each: `address` joins a running cluster, otherwise a local one starts.
    Every node writes the pairs' folders under the experiment folder's path, so on a cluster of
    several machines that folder must be one shared file system mounted at the same path."""

    def __init__(self, address: str | None = None, jobs: int | None = None):
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            import ray
        except ImportError:
            raise ConfigError("executor", "ray is not installed (pip install 'mam-bench[ray]')") from None
        self._ray = ray
        self._owned = not ray.is_initialized()
        if self._owned:
            if address:
                check_address(address)
                try:
                    ray.init(address=address, log_to_driver=False)
                except (ConnectionError, RuntimeError, ValueError) as exc:  # unreachable, refused, bad token
                    raise ConfigError("address", f"cannot join the Ray cluster at {address}: {exc}") from None
            else:
                ray.init(num_cpus=jobs or min(2, os.cpu_count() or 1), include_dashboard=False, log_to_driver=False)
        self.slots = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(num_cpus=1, max_retries=0)(run_on_node)

    def submit(self, job: dict[str, Any]) -> Any:
        return self._task.remote(job)

    def wait(self, handles: list[Any], timeout: float) -> list[tuple[Any, Any, Any]]:
        ready, _ = self._ray.wait(handles, num_returns=1, timeout=timeout)
        out = []
        for ref in ready:
            try:
                out.append((ref, self._ray.get(ref), None))
            except Exception as exc:  # a failed pair is reported, the suite goes on
                cause = getattr(exc, "cause", None)  # Ray wraps the task's error in its traceback
                out.append((ref, None, cause if isinstance(cause, PairFailed) else exc))
        return out

    def shutdown(self) -> None:
        if self._owned:
            self._ray.shutdown()


def make_executor(name: str, address: str | None = None, jobs: int | None = None) -> Executor:
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise ConfigError("jobs", f"must be between 1 and {MAX_JOBS}")
    if name == "local":
        if address:
            raise ConfigError("address", "only the ray executor takes an address")
        return LocalExecutor(jobs)
    if name == "ray":
        return RayExecutor(address, jobs)
    raise ConfigError("executor", f"unknown executor {name!r} (known: local, ray)")
