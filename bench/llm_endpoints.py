"""Faulty endpoints, measured through the real CLI with default flags (loopback server, no network).
Run from the repository's folder, as a module (it borrows the tests' loopback server):

    python -m bench.llm_endpoints llama   # a server refusing json_schema as llama_cpp.server does
    python -m bench.llm_endpoints hang    # a server that accepts every request and never answers
    python -m bench.llm_endpoints kill    # SIGKILL with calls in flight, then --resume

Prints exit codes, request counts and what the CLI said; figures in notes/llm.md.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.openai_server import OpenAIServer, schelling_reply

ROOT = Path(__file__).resolve().parents[1]

CLI = [sys.executable, "-m", "mam_bench"]


def pair(base_url: str, out: Path, *extra: str) -> list[str]:
    return [*CLI, "run", "schelling", "--seed", "22", "--policy", "llm", "--model", "openai:m"] + [
        "--base-url",
        base_url,
        "--out",
        str(out),
        *extra,
    ]


def llama(work: Path) -> None:
    for flags in ([], ["--structured", "json_schema"]):
        with OpenAIServer(reply=schelling_reply, reject_json_schema=True) as srv:
            out = work / f"llama{len(flags)}"
            started = time.monotonic()
            done = subprocess.run(pair(srv.base_url, out, *flags), capture_output=True, text=True, cwd=ROOT)
            validity = json.loads((out / "result.json").read_text())["validity"]
            sent = [(b.get("response_format") or {}).get("type") for b in srv.bodies]
            print(
                f"flags {flags or 'default'}: exit {done.returncode} in {time.monotonic() - started:.0f} s; "
                f"requests {srv.received}, refused {len(srv.refused)}, answered {srv.answered}; "
                f"formats {dict((f, sent.count(f)) for f in sorted(set(sent), key=str))}; "
                f"validity {validity['status']}, policy errors {validity['policy_errors']} of {validity['decisions']}"
            )


def hang(work: Path) -> None:
    with OpenAIServer(hang=True) as srv:
        started = time.monotonic()
        done = subprocess.run(pair(srv.base_url, work / "hang"), capture_output=True, text=True, cwd=ROOT)
        print(f"exit {done.returncode} after {time.monotonic() - started:.0f} s; requests {srv.received}")
        print(done.stderr.strip()[-400:])


def kill(work: Path) -> None:
    out = work / "kill"
    with OpenAIServer(reply=schelling_reply, hold_after=40) as srv:
        proc = subprocess.Popen(pair(srv.base_url, out, "--rounds", "3"), cwd=ROOT, stderr=subprocess.DEVNULL)
        while srv.held < 8:
            time.sleep(0.2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        print(f"killed with {srv.held} requests sent and unanswered ({srv.answered} answered)")
        srv.hold_after = None
        srv.release.set()
        done = subprocess.run([*CLI, "run", "--resume", str(out)], capture_output=True, text=True, cwd=ROOT)
        print(f"resume: exit {done.returncode}")
        print("\n".join(line for line in done.stderr.splitlines() if line.startswith("note")))


def main() -> int:
    what = sys.argv[1] if len(sys.argv) > 1 else "llama"
    work = Path(tempfile.mkdtemp(prefix="mam-endpoints-"))
    try:
        {"llama": llama, "hang": hang, "kill": kill}[what](work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
