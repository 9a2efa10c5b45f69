"""A task's verifier is contained: a verifier that hunts for the key, writes outside its folder,
forks, starts a daemon or kills its parent ends `tasks --check` and `run` with `error: task:
verifier ...` (exit 2), with no key in any output or file, no file outside its folder and no
process of it left once mam-bench has exited."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mam_bench import sandbox
from mam_bench.errors import ConfigError
from mam_bench.secrets import remember
from mam_bench.user_code import UserCode
from tests.crafting.test_task_files import TASK, write_task
from tests.support.cli import cli_process

#: a key under a name without a key-like suffix (the case the suffix filter missed)
KEY = "sk-contained-" + secrets.token_hex(12)
LIMIT = "verifier_seconds: 3\n"

#: every place a verifier might find the key, printed whole, before it fails
HUNT = """\
import os, sys
found = [f"{k}={v}" for k, v in os.environ.items()]
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    try:
        found.append(open(f"/proc/{pid}/environ", "rb").read().decode(errors="replace"))
    except OSError as exc:
        found.append(f"{pid}: {type(exc).__name__}")
print("\\n".join(found))
print("\\n".join(found), file=sys.stderr)
raise RuntimeError("; ".join(found)[-2000:])
"""

HOSTILE = {
    "hunts the key": HUNT,
    "reads its parent's environment": (
        "import os\nprint(open(f'/proc/{os.getppid()}/environ', 'rb').read())\n"
        "print(open(f'/proc/{os.getppid()}/environ', 'rb').read())\n"
    ),
    "writes outside its folder": (
        "import os\nfor where in ({outside!r}, '/tmp/{marker}', os.path.expanduser('~/../{marker}')):\n"
        "    try:\n        open(where, 'w').write('x')\n    except OSError as exc:\n        print(where, exc)\n"
        "open({outside!r}, 'w').write('x')\n"
    ),
    "forks": (
        "import os, time\ndef verify(trajectory):\n    for _ in range(4):\n        os.fork()\n    time.sleep(3600)\n"
    ),
    "starts a daemon": (
        "import os, subprocess, time\n"
        "def verify(trajectory):\n"
        "    subprocess.Popen(['setsid', 'sleep', '{sleep}'], start_new_session=True)\n"
        "    subprocess.Popen(['sleep', '{sleep}'], env={{}}, start_new_session=True)\n"
        "    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n"
        "            os.execve('/bin/sleep', ['sleep', '{sleep}'], {{}})\n        os._exit(0)\n"
        "    time.sleep(0.5)\n    raise RuntimeError('daemons started')\n"
    ),
    "kills its parent": (
        "import os, signal\ndef verify(trajectory):\n    os.kill(os.getppid(), signal.SIGKILL)\n"
        "    for pid in (p for p in os.listdir('/proc') if p.isdigit()):\n"
        "        if b'mam_bench' in open(f'/proc/{pid}/cmdline', 'rb').read():\n"
        "            os.kill(int(pid), signal.SIGKILL)\n    return True\n"
    ),
}


def left_over(sleep: str, temp: Path) -> list[str]:
    """Live processes of this test's verifiers (started under its own temp folder: a verifier's
    copies live there, so its processes name it) or of the daemons it started (their sleeps: the
    number as a whole argument, not inside another process's argument, such as a verifier of a test
    running beside this one whose 10-digit argument held it)."""
    left = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if stat.rpartition(")")[2].split()[0] == "Z":
            continue
        if str(temp).encode() in cmdline or sleep.encode() in cmdline.split(b"\0"):
            left.append(f"{pid} {cmdline!r}")
    return left


@pytest.fixture()
def temp() -> Iterator[Path]:
    """The TMPDIR of the command under test (readable by a verifier's own uid; the tests' own
    folders are not), so only its verifiers' folders and processes are looked for."""
    folder = Path(tempfile.mkdtemp(prefix="mam-bench-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def hostile_task(case: str, folder: Path) -> tuple[Path, str, Path]:
    marker = f"escaped-{secrets.token_hex(6)}"
    outside = folder / "outside.txt"
    sleep = str(7000 + secrets.randbelow(2000))
    body = HOSTILE[case].replace("{outside!r}", repr(str(outside))).replace("{marker}", marker)
    body = body.replace("{sleep}", sleep).replace("{{", "{").replace("}}", "}")
    return write_task(folder / "task", TASK + LIMIT, body), sleep, outside


def assert_contained(done: subprocess.CompletedProcess, folder: Path, sleep: str, outside: Path, temp: Path) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.startswith("error: task: verifier "), done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert KEY not in done.stdout and KEY not in done.stderr
    for path in folder.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    assert not outside.exists()
    assert not [p for p in Path("/tmp").glob("escaped-*")]
    assert left_over(sleep, temp) == []
    assert not list(temp.glob("mam-bench-verifier-*"))  # its folder removed


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_verifier_is_contained_by_check(case: str, tmp_path: Path, temp: Path) -> None:
    task, sleep, outside = hostile_task(case, tmp_path)
    env = {"MY_LLM": KEY, "OPENAI_API_KEY": KEY, "TMPDIR": str(temp)}
    done = cli_process("tasks", "crafting", "--check", task, env=env)
    assert_contained(done, tmp_path, sleep, outside, temp)


@pytest.mark.parametrize("case", ["hunts the key", "starts a daemon", "kills its parent"])
def test_a_hostile_verifier_is_contained_by_run(case: str, tmp_path: Path, temp: Path) -> None:
    task, sleep, outside = hostile_task(case, tmp_path)
    done = cli_process(
        "run", "crafting", "--param", f"task={task}", "--param", "influence=1", "--policy", "rule",
        "--out", tmp_path / "run", env={"MY_LLM": KEY, "OPENAI_API_KEY": KEY, "TMPDIR": str(temp)},
    )  # fmt: skip
    assert_contained(done, tmp_path, sleep, outside, temp)
    assert not (tmp_path / "run" / "result.json").exists()


def test_what_a_verifier_prints_of_a_known_key_is_scrubbed(tmp_path: Path) -> None:
    """A key the run was given (any variable name) is replaced by [key] in the error and output."""
    value = "given-" + secrets.token_hex(10)
    remember(value)
    (tmp_path / "v.py").write_text(f"print({value!r})\ndef verify(t):\n    raise ValueError({value!r})\n")
    code = UserCode(tmp_path / "v.py", "verify", 5)
    with pytest.raises(ConfigError) as caught:
        code({})
    assert value not in caught.value.message and "[key]" in caught.value.message, caught.value.message
    assert "ValueError" in caught.value.message


def test_the_verifier_gets_its_own_empty_folder_and_the_allowlisted_environment(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("WORD = 'beside'\n")
    (tmp_path / "v.py").write_text(
        "import os, helper\n"
        "def verify(t):\n"
        "    return [os.getcwd(), os.listdir('.'), sorted(os.environ), os.environ['HOME'], helper.WORD]\n"
    )
    code = UserCode(tmp_path / "v.py", "verify", 5)
    cwd, listed, names, home, word = code({})
    assert listed == [] and home == cwd and word == "beside"
    assert set(names) <= {*sandbox.ENV_ALLOWED, "HOME", "TMPDIR", sandbox.MARKER}
    assert Path(cwd).is_dir()
    code.close()
    assert not Path(cwd).exists()  # removed with the child


def test_the_verifier_runs_under_limits_and_not_as_root(tmp_path: Path) -> None:
    (tmp_path / "v.py").write_text(
        "import os, resource\n"
        "def verify(t):\n"
        "    return [os.getuid(), resource.getrlimit(resource.RLIMIT_FSIZE)[0], "
        "resource.getrlimit(resource.RLIMIT_NOFILE)[0]]\n"
    )
    code = UserCode(tmp_path / "v.py", "verify", 5)
    uid, fsize, nofile = code({})
    code.close()
    assert (fsize, nofile) == (sandbox.LIMITS["RLIMIT_FSIZE"], sandbox.LIMITS["RLIMIT_NOFILE"])
    if os.geteuid() == 0:
        assert sandbox.UID_RANGE[0] <= uid < sandbox.UID_RANGE[1]


def test_check_says_what_a_verifier_can_still_do(tmp_path: Path) -> None:
    task = write_task(tmp_path / "task")
    done = cli_process("tasks", "crafting", "--check", task)
    assert done.returncode == 0, done.stderr
    assert "contained: " in done.stdout and "not contained: " in done.stdout, done.stdout


def test_the_sandbox_describes_this_machine() -> None:
    lines = sandbox.describe()
    assert any(line.startswith("not contained: ") for line in lines)
    assert (sandbox.landlock_abi() >= 1) == any("Landlock ABI" in line for line in lines)


#: run by a user without root: a verifier asked to reach the mam-bench process that started it
NOT_ROOT_DRIVER = """\
import json, os, sys
os.environ["MY_LLM"] = sys.argv[2]
from mam_bench.errors import ConfigError
from mam_bench.user_code import UserCode
code = UserCode(sys.argv[1], "verify", 20)
try:
    said = code({"mam_bench": os.getpid()})
except ConfigError as exc:
    said = str(exc)
code.close()
print(json.dumps(said))
"""
NOT_ROOT_VERIFIER = """\
import os, signal
def verify(t):
    tried = {}
    for what, act in (
        ("environ", lambda: open(f"/proc/{t['mam_bench']}/environ", "rb").read()),
        ("write", lambda: open("/tmp/mam-bench-escaped-" + str(os.getpid()), "w").write("x")),
        ("signal", lambda: os.kill(t["mam_bench"], signal.SIGCONT)),
        ("kill", lambda: os.kill(os.getppid(), signal.SIGKILL)),
    ):
        try:
            act()
            tried[what] = "done"
        except OSError as exc:
            tried[what] = type(exc).__name__
    return tried
"""


def test_without_root_the_verifier_cannot_reach_mam_bench(tmp_path: Path) -> None:
    """mam-bench as an ordinary user (as root the test becomes `nobody`): the verifier cannot read
    its environment; with Landlock it cannot write outside its folder nor signal out, and where
    it can kill its supervisor the call is an error naming the verifier, never a silent end."""
    import json

    here = Path(tempfile.mkdtemp(prefix="mam-bench-not-root-"))
    try:
        package = here / "mam_bench"
        package.mkdir()
        for name in ("__init__", "errors", "secrets", "sandbox", "user_code", "child_process"):
            shutil.copy(Path(sandbox.__file__).with_name(f"{name}.py"), package / f"{name}.py")
        (here / "driver.py").write_text(NOT_ROOT_DRIVER)
        (here / "v.py").write_text(NOT_ROOT_VERIFIER)
        for path in [here, *here.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        python = sys.executable
        argv = [python, str(here / "driver.py"), str(here / "v.py"), KEY]
        if os.geteuid() == 0:  # become an ordinary user that can run a system Python
            python = shutil.which("python3", path="/usr/bin:/bin") or python
            argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", python, *argv[1:]]
        env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(here), "HOME": str(here)}
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=here)
        assert done.returncode == 0, done.stderr
        assert KEY not in done.stdout + done.stderr
        said = json.loads(done.stdout)
    finally:
        shutil.rmtree(here, ignore_errors=True)
    if isinstance(said, str):  # no Landlock signal scope: it killed its supervisor, and that is said
        assert sandbox.landlock_abi() < 6 and "ended during verify()" in said, said
        return
    assert said["environ"] == "PermissionError", said
    if sandbox.landlock_abi() >= 1:
        assert said["write"] == "PermissionError", said
    if sandbox.landlock_abi() >= 6:
        assert said["signal"] == said["kill"] == "PermissionError", said
    assert not list(Path("/tmp").glob("mam-bench-escaped-*"))
