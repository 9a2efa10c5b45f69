"""A user's Python file (a task's verifier) runs contained in a child process: with a time limit, its
output captured and scrubbed of every key the run knows, and its crash, `sys.exit` or endless loop an
error naming the file, never a hang of the run or a silent exit of mam-bench. The child imports the
file once and then answers calls.

The child is a supervisor (its own session, a subreaper, an environment from an allowlist) that
forks the worker running the user's code: resource limits, a uid of its own as root, Landlock where
the kernel has it (mam_bench.sandbox), a fresh empty folder with a copy of the user's files. Ending
it kills every process the code started, one in a new session too. mam-bench itself is not
dumpable while verifiers run, so its environment (the key) cannot be read through /proc.

Calls go in pickled (the caller's own data, int keys intact); answers come back as JSON lines on
a pipe of their own, so nothing the user's code prints or returns is unpickled by mam-bench.
"""

from __future__ import annotations

import atexit
import json
import os
import pickle
import secrets
import select
import shutil
import subprocess
import sys
import tempfile
import time
import weakref
from functools import partial
from pathlib import Path
from typing import Any

from mam_bench import sandbox
from mam_bench.errors import ConfigError
from mam_bench.secrets import known_secrets

#: how much of the child's captured output an error quotes
OUTPUT_TAIL = 300
#: the user's files copied beside the one called (its helper modules): at most this many, this size
MAX_FILES, MAX_FILE_BYTES = 64, 1 << 20
#: how long the supervisor gets to kill its tree and exit once told to
SWEEP_SECONDS = 5.0


def _scrub(text: str) -> str:
    for secret in known_secrets():
        text = text.replace(secret, "[key]")
    return text


def _scrub_all(value: Any) -> Any:
    if isinstance(value, str):
        return _scrub(value)
    if isinstance(value, list):
        return [_scrub_all(v) for v in value]
    if isinstance(value, dict):
        return {_scrub(k): _scrub_all(v) for k, v in value.items()}
    return value


#: the children not yet closed, closed at exit (their supervisors would kill their trees anyway,
#: but the folders and any escaped process are removed here)
_alive: weakref.WeakSet[UserCode] = weakref.WeakSet()


def _close_all() -> None:
    for code in list(_alive):
        code.close()


atexit.register(_close_all)


class UserCode:
    """`function` of the Python file `path`, callable with one argument in a contained child."""

    def __init__(
        self,
        path: Path,
        function: str,
        seconds: float,
        field: str = "task",
        what: str = "verifier",
        files: tuple[Path, ...] = (),
        helpers_of: Path | None = None,
    ):
        self.path, self.function, self.seconds, self.field, self.what = Path(path), function, seconds, field, what
        self._closed, self._ended, self._creator = True, False, os.getpid()
        _alive.add(self)
        self.folder = Path(tempfile.mkdtemp(prefix="mam-bench-verifier-"))
        self._token = secrets.token_hex(16)
        self._uid = sandbox.free_uid()
        self._copies = self._copy_files(files, Path(helpers_of or path).parent)
        sandbox.not_dumpable()  # from now on the key in this process's environment is unreadable
        self._output = tempfile.TemporaryFile()
        to_child, self._to_child = os.pipe()
        self._from_child, from_child = os.pipe()
        control, self._control = os.pipe()
        work = self.folder / "work"
        argv = [str(self._copies[self.path.resolve()]), function, str(to_child), str(from_child), str(control)]
        argv += [str(work), str(self._uid if self._uid is not None else -1)]
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-P", "-m", "mam_bench.user_code", *argv],  # -P: nothing imported from cwd
                stdin=subprocess.DEVNULL,
                stdout=self._output,
                stderr=subprocess.STDOUT,
                env=sandbox.environment(work, self._token),
                cwd=self.folder,
                pass_fds=(to_child, from_child, control),
                start_new_session=True,  # its own process group and session, killed whole
            )
        except OSError as exc:
            for fd in (to_child, from_child, control, self._to_child, self._from_child, self._control):
                os.close(fd)
            self.close()
            raise ConfigError(field, f"{what} {path}: its child could not start ({exc.strerror or exc})") from None
        for fd in (to_child, from_child, control):
            os.close(fd)
        self._requests = os.fdopen(self._to_child, "wb")
        self._pending = b""
        self._closed = False
        self._answer("import")

    def _copy_files(self, files: tuple[Path, ...], helpers: Path) -> dict[Path, Path]:
        """Copy the called file, `files` and the .py files in `helpers` (its helper modules) into the
        child's folder (code/, readable by the verifier's uid; work/ is its empty working folder):
        the original -> its copy. A helper copied last gives way to a file of the same name."""
        code, work = self.folder / "code", self.folder / "work"
        code.mkdir()
        work.mkdir()
        beside = sorted(helpers.glob("*.py")) if helpers.is_dir() else []
        wanted = [self.path, *beside, *files]
        if len(wanted) > MAX_FILES:
            self.close()
            raise ConfigError(self.field, f"{self.what} {self.path}: its folder holds more than {MAX_FILES} .py files")
        copies: dict[Path, Path] = {}
        for original in wanted:
            resolved = Path(original).resolve()
            if resolved in copies:
                continue
            try:
                if resolved.stat().st_size > MAX_FILE_BYTES:
                    raise ConfigError(self.field, f"{self.what} {original}: larger than {MAX_FILE_BYTES} bytes")
                target = code / resolved.name
                if target.exists():  # a second file of the same name (the runner and a criteria file)
                    target = code / f"{len(copies)}_{resolved.name}"
                shutil.copyfile(resolved, target)
            except OSError as exc:
                self.close()
                raise ConfigError(
                    self.field, f"{self.what} {original}: cannot read it ({exc.strerror or exc})"
                ) from None
            except ConfigError:
                self.close()
                raise
            target.chmod(0o644)
            copies[resolved] = target
        code.chmod(0o755)
        self.folder.chmod(0o755)
        if self._uid is not None:
            os.chown(work, self._uid, self._uid)
        return copies

    def copy_of(self, path: str | Path) -> str:
        """The path the child reads a file given in `files` at."""
        return str(self._copies[Path(path).resolve()])

    @property
    def closed(self) -> bool:
        """Ended (after a failure or `close`): a new one must be started to call the file again."""
        return self._closed

    def __call__(self, argument: Any) -> Any:
        if self._closed or self._proc.poll() is not None:
            self._fail(f"ended before {self.function}() was called (exit code {self._proc.returncode})")
        data = pickle.dumps(argument)
        try:
            self._requests.write(len(data).to_bytes(8, "big") + data)
            self._requests.flush()
        except OSError:
            self._fail(f"{self.function}() could not be called")
        return self._answer(f"{self.function}()")["value"]

    def _answer(self, step: str) -> dict[str, Any]:
        """The child's next answer line, within the time limit; anything else ends the child."""
        deadline = time.monotonic() + self.seconds
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                self._fail(f"gave no answer within {self.seconds:g} s ({step}); stopped")
            chunk = os.read(self._from_child, 65536)
            if not chunk:
                code = self._proc.poll()
                said = f" (its supervisor ended, exit code {code})" if code is not None else ""
                self._fail(f"ended during {step} without an answer{said}")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        try:
            answer = _scrub_all(json.loads(line))
        except ValueError:
            self._fail(f"gave an unreadable answer during {step}")
        if not isinstance(answer, dict):
            self._fail(f"gave an unreadable answer during {step}")
        if "error" in answer:
            self._fail(str(answer["error"]))
        return answer

    def output(self) -> str:
        """The last of what the user's code printed, every known key replaced by [key]."""
        self._output.seek(0)
        return _scrub(self._output.read().decode("utf-8", "replace"))[-OUTPUT_TAIL:].strip()

    def _fail(self, reason: str) -> None:
        self.close()
        printed = self.output()
        said = f" (its output ends: {printed!r})" if printed else ""
        raise ConfigError(self.field, _scrub(f"{self.what} {self.path} {reason}{said}"))

    def close(self) -> None:
        """End the child and every process it started, and remove its folder (idempotent; a no-op
        in a forked copy of the process that started it)."""
        if self._ended or os.getpid() != self._creator:
            return
        self._ended = self._closed = True
        if hasattr(self, "_proc"):
            for end in (self._requests.close, partial(os.close, self._control)):
                try:
                    end()
                except OSError:
                    pass
            try:  # told by its control pipe closing, the supervisor kills its tree and exits
                self._proc.wait(SWEEP_SECONDS)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            # whatever left its tree (its supervisor killed first): by uid, process group or marker
            sandbox.sweep(self._token, self._uid, self._proc.pid)
            try:
                os.close(self._from_child)
            except OSError:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)

    def __del__(self) -> None:
        if not getattr(self, "_ended", True):
            self.close()


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    return f"raised {type(exc).__name__}: {exc}"


def import_file(path: str, name: str) -> Any:
    """Import a user's file as module `name`, a helper module beside it importable (child process
    only: the parent never runs user code)."""
    import importlib.util

    sys.path.insert(0, str(Path(path).parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _serve(path: str, function: str, requests: int, answers: int) -> None:
    """The worker: import the file, say so, then answer one call per request until the pipe closes."""

    out = os.fdopen(answers, "w", encoding="utf-8")
    for printed in (sys.stdout, sys.stderr):  # a line printed before a hang is kept too
        try:
            printed.reconfigure(line_buffering=True)  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass

    def say(**answer: Any) -> None:
        for printed in (sys.stdout, sys.stderr):  # what it printed is in the file before the answer
            try:
                printed.flush()
            except (OSError, ValueError):
                pass
        out.write(json.dumps(answer) + "\n")
        out.flush()

    try:
        module = import_file(path, "user_code")
    except BaseException as exc:  # noqa: BLE001 - user code: whatever it does is reported
        say(error=f"does not import: {_describe(exc)}")
        return
    fn = getattr(module, function, None)
    if not callable(fn):
        say(error=f"defines no {function}() function")
        return
    say(ready=True)
    inbox = os.fdopen(requests, "rb")
    while len(head := inbox.read(8)) == 8:
        argument = pickle.loads(inbox.read(int.from_bytes(head, "big")))
        try:
            value = fn(argument)
        except BaseException as exc:  # noqa: BLE001 - user code
            say(error=f"{_describe(exc)} in {function}()")
            return
        try:
            say(value=value)
        except (TypeError, ValueError):
            say(error=f"returned {type(value).__name__}, which is not plain data")
            return


def _contain(work: Path, uid: int, supervisor: int) -> None:
    """The worker, before any user code: dies with its supervisor, limits, its uid, Landlock."""
    from mam_bench.child_process import die_with_parent

    die_with_parent(supervisor)
    os.chdir(work)
    users = sum(1 for pid in os.listdir("/proc") if pid.isdigit() and sandbox._owner(int(pid)) == os.getuid())
    if uid >= 0:
        sandbox.drop_to(uid)
        users = 0
    sandbox.set_limits(users)
    if sandbox.landlock_abi() >= 1:
        sandbox.restrict(work)


def _sweep_children() -> None:
    """Kill every child of this subreaper (adopted orphans too) until none is left."""
    me = str(os.getpid())
    while True:
        for pid in os.listdir("/proc"):
            try:
                if pid.isdigit() and Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1] == me:
                    os.kill(int(pid), 9)
            except (OSError, IndexError):
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        time.sleep(0.02)


def _preload() -> None:
    """Import, while this process may still read them, the modules the worker needs after it took a
    uid of its own: a checkout in a folder only its owner may enter (a fresh `mktemp -d` clone)
    cannot be read from that uid, and `-m` ran this module as `__main__`, not under its name."""
    import importlib

    for name in ("mam_bench.user_code", "collections", "itertools", "json", "math", "re", "statistics"):
        importlib.import_module(name)


def _supervise(path: str, function: str, requests: int, answers: int, control: int, work: str, uid: int) -> None:
    """The supervisor: adopt every orphan of the worker's tree, fork the worker, and when mam-bench
    closes the control pipe (or dies) kill the whole tree before exiting."""
    sandbox.make_subreaper()
    sandbox.not_dumpable()
    _preload()
    supervisor = os.getpid()
    worker = os.fork()
    if worker == 0:
        os.close(control)
        try:
            _contain(Path(work), uid, supervisor)
        except BaseException as exc:  # noqa: BLE001 - said, never run uncontained
            with os.fdopen(answers, "w", encoding="utf-8") as out:
                out.write(json.dumps({"error": f"could not be contained ({type(exc).__name__}: {exc})"}) + "\n")
            os._exit(1)
        try:
            _serve(path, function, requests, answers)
        finally:
            os._exit(0)
    os.close(requests)
    os.close(answers)
    while True:  # reap what ends meanwhile; the control pipe's end is the signal to stop
        if select.select([control], [], [], 1.0)[0] and not os.read(control, 4096):
            break
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
    _sweep_children()
    shutil.rmtree(Path(work).parent, ignore_errors=True)  # its folder, even when mam-bench did not close it


if __name__ == "__main__":
    _supervise(*sys.argv[1:3], *(int(a) for a in sys.argv[3:6]), sys.argv[6], int(sys.argv[7]))
