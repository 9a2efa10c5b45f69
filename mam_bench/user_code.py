"""A user's Python file (a task's verifier) runs in a child process: with a time limit, its output
captured, and its crash, `sys.exit` or endless loop an error naming the file, never a hang of the
run or a silent exit of mam-bench. The child imports the file once and then answers calls.

Calls go in pickled (the caller's own data, int keys intact); answers come back as JSON lines on
a pipe of their own, so nothing the user's code prints or returns is unpickled by mam-bench.
"""

from __future__ import annotations

import json
import os
import pickle
import select
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from mam_bench.child_process import die_with_parent
from mam_bench.errors import ConfigError
from mam_bench.secrets import SECRET_SUFFIXES

#: how much of the child's captured output an error quotes
OUTPUT_TAIL = 300


class UserCode:
    """`function` of the Python file `path`, callable with one argument in a child process."""

    def __init__(self, path: Path, function: str, seconds: float, field: str = "task", what: str = "verifier"):
        self.path, self.function, self.seconds, self.field, self.what = Path(path), function, seconds, field, what
        self._output = tempfile.TemporaryFile()
        to_child, self._to_child = os.pipe()
        self._from_child, from_child = os.pipe()
        env = {k: v for k, v in os.environ.items() if not k.endswith(SECRET_SUFFIXES)}  # no API key to read
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "mam_bench.user_code", str(self.path), function, str(to_child), str(from_child)],
            stdin=subprocess.DEVNULL,
            stdout=self._output,
            stderr=subprocess.STDOUT,
            env=env,
            pass_fds=(to_child, from_child),
            preexec_fn=partial(die_with_parent, os.getpid()),
        )
        os.close(to_child)
        os.close(from_child)
        self._requests = os.fdopen(self._to_child, "wb")
        self._pending = b""
        self._closed = False
        self._answer("import")

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
                code = self._proc.wait()
                self._fail(f"ended during {step} without an answer (exit code {code})")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        answer = json.loads(line)
        if "error" in answer:
            self._fail(answer["error"])
        return answer

    def output(self) -> str:
        """The last of what the user's code printed."""
        self._output.seek(0)
        return self._output.read().decode("utf-8", "replace")[-OUTPUT_TAIL:].strip()

    def _fail(self, reason: str) -> None:
        self.close()
        printed = self.output()
        said = f" (its output ends: {printed!r})" if printed else ""
        raise ConfigError(self.field, f"{self.what} {self.path} {reason}{said}")

    def close(self) -> None:
        """End the child (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        for end in (self._requests.close, partial(os.close, self._from_child)):
            try:
                end()
            except OSError:
                pass

    def __del__(self) -> None:
        if not getattr(self, "_closed", True):
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
    """The child: import the file, say so, then answer one call per request until the pipe closes."""

    out = os.fdopen(answers, "w", encoding="utf-8")

    def say(**answer: Any) -> None:
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


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
