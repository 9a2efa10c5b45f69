"""What a process that should have ended is doing: its Python stacks, for a test's failure message.

A test that stops a command and waits for it can only say "timed out"; with the stacks (py-spy,
installed with Ray's `default` extra) a rare hang says where it hangs the first time it is seen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def stacks_of(pid: int) -> str:
    """Every thread's Python stack in process `pid`, or why they could not be read."""
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        return f"(no stacks: {spy} is not installed)"
    try:
        done = subprocess.run([str(spy), "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "(no stacks: py-spy did not answer in 60 s)"
    return (done.stdout + done.stderr).strip() + "\n" + signal_state(pid)


def signal_state(pid: int) -> str:
    """The process's blocked and ignored signal masks: an inherited SIG_IGN for SIGINT (bit 2 of
    SigIgn) is why a Ctrl-C is not seen."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError as exc:
        return f"(no signal masks: {exc.strerror})"
    return " ".join(line.replace("\t", " ") for line in lines if line.startswith(("SigBlk", "SigIgn")))


def communicate_or_stacks(proc: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """`proc.communicate(timeout)`; on a timeout, an AssertionError that carries its stacks."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stacks = stacks_of(proc.pid)
        proc.kill()
        proc.communicate()
        raise AssertionError(f"pid {proc.pid} still running after {timeout} s; its stacks:\n{stacks}") from None
