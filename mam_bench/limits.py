"""The bounds every command puts on what it is given, and the one reading of a number in text, so
that `experiment`, `benchmark` and the rest refuse the same typo the same way (a typo must not
fill the disk or the memory, and `²` is not a seed)."""

from __future__ import annotations

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
    """Bytes the system can still give (Linux's MemAvailable), None where it does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_memory(world_cls: type, params: object) -> None:
    """Refuse, naming the parameter, a run whose world estimates more memory than is available."""
    from mam_bench.capabilities import MemoryEstimate

    if not isinstance(world_cls, MemoryEstimate):
        return
    field, needed = world_cls.memory_needed(params)
    free = available_memory()
    if free is not None and needed > free:
        raise ConfigError(
            f"param.{field}",
            f"{field}={getattr(params, field)} needs about {needed / 2**30:.1f} GB of memory and "
            f"{free / 2**30:.1f} GB is available; choose a smaller {field}",
        )
