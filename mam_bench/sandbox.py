"""What contains a user's code (a task's verifier) on Linux: a uid of its own when mam-bench runs as
root, resource limits, Landlock (writes only in its own folder, no TCP, no signals or abstract
sockets outside its domain), an environment from an allowlist, and a sweep that kills every process
it started, even one that left for a session of its own. `describe()` says what holds here."""

from __future__ import annotations

import ctypes
import os
import random
import resource
import signal
import time
from pathlib import Path

#: the variables a verifier sees (HOME and TMPDIR are its own folder); nothing else, no key
ENV_ALLOWED = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONPATH", "PYTHONHASHSEED")
#: the variable that marks every process of one verifier (a random token per verifier)
MARKER = "MAM_BENCH_SANDBOX"
#: resource limits of a verifier's processes (soft = hard)
LIMITS = {
    "RLIMIT_NPROC": 64,  # processes of its uid (its own uid as root; else the user's count + this)
    "RLIMIT_AS": 4 << 30,  # bytes of address space
    "RLIMIT_FSIZE": 64 << 20,  # bytes of any file it writes (its captured output too)
    "RLIMIT_CPU": 600,  # CPU seconds over its life (each call also has the task's wall-clock limit)
    "RLIMIT_NOFILE": 256,  # open descriptors
}
#: the uids a verifier may get when mam-bench runs as root (one no other process uses)
UID_RANGE = (1_900_000_000, 2_000_000_000)

_PR_SET_DUMPABLE, _PR_SET_CHILD_SUBREAPER, _PR_SET_NO_NEW_PRIVS = 4, 36, 38
_SYS_CREATE, _SYS_ADD_RULE, _SYS_RESTRICT = 444, 445, 446  # landlock_* (the same on every arch)
_FS_WRITE = {1: 0b1_1111_1111_0010, 2: 1 << 13, 3: 1 << 14}  # write rights by the ABI that added them
_FILE_RIGHTS = (1 << 1) | (1 << 14)  # WRITE_FILE, TRUNCATE: the rights a rule on a file may carry
_NET_TCP = 0b11  # BIND_TCP, CONNECT_TCP (ABI 4)
_SCOPES = 0b11  # abstract unix sockets, signals (ABI 6)


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _prctl(option: int, value: int) -> bool:
    try:
        return _libc().prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return False


def not_dumpable() -> bool:
    """This process's environment and memory become unreadable to other processes of its user
    (`/proc/PID/environ`, ptrace): where the key lives while a verifier can run."""
    return _prctl(_PR_SET_DUMPABLE, 0)


def make_subreaper() -> bool:
    """Orphans of this process's descendants become its children (a daemon cannot leave its tree)."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 where there is none."""
    try:
        version = _libc().syscall(_SYS_CREATE, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return 0
    return max(int(version), 0)


class _Ruleset(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def restrict(folder: Path) -> int:
    """Landlock this process and its future children: writes only beneath `folder` (and to
    /dev/null), and from ABI 4/6 no TCP and no signals to processes outside. Returns the ABI used;
    raises OSError where the kernel refuses."""
    abi = landlock_abi()
    if abi < 1:
        raise OSError("Landlock is not available")
    libc = _libc()
    write = sum(bits for version, bits in _FS_WRITE.items() if abi >= version)
    attr = _Ruleset(write, _NET_TCP if abi >= 4 else 0, _SCOPES if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = libc.syscall(_SYS_CREATE, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        for path, allowed in ((folder, write), (Path(os.devnull), write & _FILE_RIGHTS)):
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = _PathBeneath(allowed, fd)
                if libc.syscall(_SYS_ADD_RULE, int(ruleset), 1, ctypes.byref(rule), 0) < 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
            finally:
                os.close(fd)
        if not _prctl(_PR_SET_NO_NEW_PRIVS, 1):
            raise OSError(ctypes.get_errno(), "no_new_privs")
        if libc.syscall(_SYS_RESTRICT, int(ruleset), 0) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(int(ruleset))
    return abi


def free_uid() -> int | None:
    """A uid no process uses, when this process may switch to it (root, and the uid mapped in its
    user namespace); else None."""
    if os.geteuid() != 0 or not _mapped(*UID_RANGE):
        return None
    used = {_owner(pid) for pid in _pids()}
    while (uid := random.randrange(*UID_RANGE)) in used:  # noqa: S311 - a free number, not a secret
        pass
    return uid


def _mapped(low: int, high: int) -> bool:
    """Every uid in [low, high) exists in this user namespace (a rootless container maps few)."""
    try:
        rows = [line.split() for line in Path("/proc/self/uid_map").read_text().splitlines()]
        return any(int(inside) <= low and high <= int(inside) + int(count) for inside, _, count in rows)
    except (OSError, ValueError):
        return False


def set_limits(user_processes: int) -> None:
    """Apply LIMITS to this process (RLIMIT_NPROC counts the user's processes: `user_processes`
    already running plus the verifier's own allowance)."""
    for name, value in LIMITS.items():
        if name == "RLIMIT_NPROC":
            value += user_processes
        resource.setrlimit(getattr(resource, name), (value, value))


def drop_to(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def environment(folder: Path, token: str) -> dict[str, str]:
    """The verifier's whole environment: the allowlist's values, its folder as HOME and TMPDIR,
    and the marker that finds its processes."""
    env = {k: os.environ[k] for k in ENV_ALLOWED if k in os.environ}
    return {**env, "HOME": str(folder), "TMPDIR": str(folder), MARKER: token}


def _pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def _owner(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _group(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[2])
    except (OSError, ValueError, IndexError):
        return None


def _marked(pid: int, marker: bytes) -> bool:
    try:
        return marker in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def members(token: str, uid: int | None, group: int | None) -> list[int]:
    """The processes of one verifier: its uid's (as root), its process group's, and any whose
    environment carries its marker."""
    marker, me = f"{MARKER}={token}".encode(), os.getpid()
    return [
        pid
        for pid in _pids()
        if pid != me
        and (
            (uid is not None and _owner(pid) == uid)
            or (group is not None and _group(pid) == group)
            or _marked(pid, marker)
        )
    ]


def sweep(token: str, uid: int | None, group: int | None, rounds: int = 50) -> int:
    """Kill every process of one verifier until none is left (one that forks meanwhile is found
    on the next round); returns how many were killed."""
    killed = 0
    for _ in range(rounds):
        found = members(token, uid, group)
        if not found:
            return killed
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        time.sleep(0.02)
    return killed


_LIMIT_NAMES = {
    "RLIMIT_NPROC": "processes",
    "RLIMIT_AS": "memory",
    "RLIMIT_FSIZE": "bytes per file",
    "RLIMIT_CPU": "CPU seconds",
    "RLIMIT_NOFILE": "open files",
}
_BYTES = ("RLIMIT_AS", "RLIMIT_FSIZE")


def _size(n: int) -> str:
    return f"{n >> 30} GiB" if n >= 1 << 30 else f"{n >> 20} MiB"


def describe() -> list[str]:
    """What contains a verifier on this machine, and what does not, in plain words."""
    abi = landlock_abi()
    root = os.geteuid() == 0 and _mapped(*UID_RANGE)  # a uid of its own
    held = [
        "its own empty folder (HOME, TMPDIR, working folder), removed afterwards",
        f"an environment of {', '.join(ENV_ALLOWED)} only: no API key variable",
        "its output and errors scrubbed of every key the run knows before they are quoted",
        "limits: " + ", ".join(f"{_LIMIT_NAMES[k]} {_size(v) if k in _BYTES else v}" for k, v in LIMITS.items()),
        "a supervisor that adopts and kills every process it starts, a new session's too",
    ]
    if root:
        held.append("a uid of its own: it cannot read, signal or trace mam-bench or other users' files")
    else:
        held.append("mam-bench not dumpable: its environment and memory are unreadable to the verifier")
    missing = []
    if abi >= 1:
        held.append(f"Landlock ABI {abi}: it writes only in its folder")
        if abi >= 4:
            held.append("no TCP connections")
        if abi >= 6:
            held.append("no signals to processes outside it")
    else:
        missing.append("no Landlock here: it can write wherever its user can" + (" (/tmp, /var/tmp)" if root else ""))
    if abi < 4:
        missing.append("it can open network connections")
    if abi < 6 and not root:
        missing.append("it can signal other processes of your user")
    missing.append(f"it can read {'every world-readable file' if root else 'every file your user can'} and use UDP")
    if not root and abi < 6:
        missing.append(
            "a process that kills its supervisor and re-executes with an empty environment "
            "in a new session can outlive the run"
        )
    return [f"contained: {h}" for h in held] + [f"not contained: {m}" for m in missing]
