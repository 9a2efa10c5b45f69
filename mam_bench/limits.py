"""The bounds every command puts on what it is given, and the one reading of a number in text, so
that `experiment`, `benchmark` and the rest refuse the same typo the same way (a typo must not
fill the disk or the memory, and `²` is not a seed)."""

from __future__ import annotations

from pathlib import Path

from mam_bench.errors import ConfigError

#: seeds per suite or benchmark, repeats per suite, pairs per suite
MAX_SEEDS = 100_000
MAX_REPEATS = 1_000
MAX_PAIRS = 200_000
#: worker processes: more than this is a typo, not a machine
MAX_JOBS = 256


def whole_number(text: str) -> int | None:
    """The value of ASCII digits (surrounding blanks allowed), else None: `²` and `٣` are not numbers here."""
    t = text.strip()
    return int(t) if t.isascii() and t.isdigit() else None


def seed_range(text: str) -> tuple[int, int] | None:
    """`A-B` as (A, B) when both are whole numbers, else None."""
    a, sep, b = text.partition("-")
    lo, hi = whole_number(a), whole_number(b)
    return (lo, hi) if sep and lo is not None and hi is not None else None


def check_seed_count(n: int, field: str = "seeds") -> None:
    if n > MAX_SEEDS:
        raise ConfigError(field, f"{n} seeds; at most {MAX_SEEDS}")


def available_memory() -> int | None:
    """Bytes this process can still get: Linux's MemAvailable, or less when a cgroup's memory limit
    leaves less (a container's 512 MB under a host's 64 GB); None where neither says."""
    found = [v for v in (_meminfo_available(), cgroup_memory_left()) if v is not None]
    return min(found) if found else None


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


#: cgroup v2 and v1: (the hierarchy's mount, its limit file, its usage file)
_CGROUP_FILES = {
    "": ("/sys/fs/cgroup", "memory.max", "memory.current"),
    "memory": ("/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"),
}


def cgroup_memory_left(
    proc_cgroup: str | Path = "/proc/self/cgroup", files: dict[str, tuple[str, str, str]] | None = None
) -> int | None:
    """The least limit minus usage over this process's memory cgroup and its ancestors (v2's
    `memory.max`, v1's `memory.limit_in_bytes`), None without a limit."""
    try:
        lines = Path(proc_cgroup).read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    left: list[int] = []
    for line in lines:
        _, controllers, path = line.split(":", 2) if line.count(":") >= 2 else ("", None, "")
        known = files or _CGROUP_FILES
        if controllers is None or controllers not in known:
            continue
        root, limit_file, usage_file = known[controllers]
        folder = Path(root + path)
        while True:
            limit, usage = _number(folder / limit_file), _number(folder / usage_file)
            if limit is not None and limit < 1 << 60:  # v1 says "no limit" with a huge number
                left.append(max(limit - (usage or 0), 0))
            if folder == Path(root) or folder == folder.parent:
                break
            folder = folder.parent
    return min(left) if left else None


def _number(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None  # v2's "max": no limit


def check_memory(world_cls: type, params: object) -> None:
    """Refuse, naming the parameter, a run whose world estimates more memory than is available."""
    from mam_bench.capabilities import MemoryEstimate

    if not isinstance(params, MemoryEstimate):
        return
    field, needed = params.memory_needed()
    free = available_memory()
    if free is not None and needed > free:
        raise ConfigError(
            f"param.{field}",
            f"{field}={getattr(params, field)} needs about {needed / 2**30:.1f} GB of memory and "
            f"{free / 2**30:.1f} GB is available; choose a smaller {field}",
        )
