"""What a model is known to need, read from its recorded calls: repairs per call and seconds per call.

An estimate counts turns exactly, but how many repairs a model needs and how long it takes depend
on the model; a run that recorded them says. The rows are the `llm_calls.jsonl` of a run folder or
of every pair of an experiment or benchmark folder. A repair is a call with `attempt` above 0 (the
controller asks again, quoting the error); seconds are the median service time of the calls a provider
answered (`service_s`: without the wait for a free slot or the model's lock, which depends on how
many agents shared it; `latency_s` in records that predate it; a cached answer took no time).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Rate:
    model: str
    #: first asks (attempt 0)
    asks: int
    #: repair calls (attempt 1 and up)
    repairs: int
    #: median seconds of a call a provider answered (None: every call was cached)
    seconds: float | None

    @property
    def repairs_per_ask(self) -> float:
        return self.repairs / self.asks if self.asks else 0.0

    def text(self) -> str:
        per = "" if self.seconds is None else f", {self.seconds:.1f} s a call"
        return f"{self.model}: {self.repairs} repairs in {self.asks} asks ({self.repairs_per_ask:.3f} a call){per}"


def call_files(folder: Path) -> list[Path]:
    """The call records of a run folder, or of every pair of an experiment or benchmark folder."""
    own = folder / "llm_calls.jsonl"
    return [own] if own.is_file() else sorted(folder.glob("pairs/*/llm_calls.jsonl"))


def recorded_rates(folders: Iterable[Path]) -> dict[str, Rate]:
    """model -> its rate over every call recorded in these folders (coordination posts left out:
    they are not repaired). A folder with no call records adds nothing."""
    asks: dict[str, int] = {}
    repairs: dict[str, int] = {}
    latency: dict[str, list[float]] = {}
    for folder in folders:
        for path in call_files(Path(folder)):
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                model = row.get("model")
                if not model or row.get("phase") == "coordination":
                    continue
                if int(row.get("attempt") or 0) > 0:
                    repairs[model] = repairs.get(model, 0) + 1
                else:
                    asks[model] = asks.get(model, 0) + 1
                seconds = row.get("service_s", row.get("latency_s"))
                if not row.get("cached") and seconds is not None and not row.get("error"):
                    latency.setdefault(model, []).append(float(seconds))
    return {
        m: Rate(m, asks.get(m, 0), repairs.get(m, 0), statistics.median(latency[m]) if latency.get(m) else None)
        for m in sorted(set(asks) | set(repairs))
        if asks.get(m)
    }
