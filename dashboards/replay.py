"""A recorded run played back without a model or an API key (`mam-bench dashboard --run DIR`).

The recording already holds every row and decision, so "stepping" only reveals one more round.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mam_bench.dashboards.session import PairInfo, PairState
from mam_bench.errors import ConfigError
from mam_bench.record_schema import controller_name, read_record
from mam_bench.records import load_record, read_jsonl, read_rounds


def _world_cls(name: str) -> Any:
    """The world class when it imports; a replay must also work when it does not."""
    try:
        from mam_bench.registry import get_world

        return get_world(name)
    except Exception:
        return None


def load_recording(run_dir: Path | str) -> PairState:
    """The whole recorded pair as one PairState (all rounds)."""
    out = Path(run_dir)
    if not (out / "treatment.jsonl").exists():
        raise ConfigError("run", f"{out} holds no treatment.jsonl (not a run directory)")
    meta: dict[str, Any] = {}
    for name in ("result.json", "spec.json"):
        if (out / name).exists():
            meta = {**read_record(load_record(out / name, "run"), name), **meta}
    world = meta.get("world", "unknown")
    cls = _world_cls(world)
    primary = meta.get("metric") or (cls.scoring.metric if cls is not None else None)
    treatment = read_rounds(out, "treatment.jsonl")
    reference = read_rounds(out, "reference.jsonl") if (out / "reference.jsonl").exists() else [treatment[0]]
    if primary is None:
        primary = next(iter(treatment[0]["metrics"]))
    info = PairInfo(
        world=world,
        seed=int(meta.get("seed", 0)),
        objective=meta.get("objective", ""),
        direction=int(meta.get("direction", 1)),
        primary=primary,
        secondary=meta.get("secondary_metric", cls.scoring.secondary if cls is not None else None),
        influence_ids=tuple(meta.get("influence_ids") or ()),
        params=meta.get("params") or {},
        horizon=len(treatment) - 1,
        controller=f"replay of {controller_name(meta) or '?'}",
        world_cls=cls,
    )
    feed = read_jsonl(out / "decisions.jsonl") if (out / "decisions.jsonl").exists() else []
    facts: dict[int, list[str]] = {}
    if (out / "board.jsonl").exists():
        for e in read_jsonl(out / "board.jsonl"):
            if e.get("kind") == "authoritative":
                facts.setdefault(int(e["round"]), []).append(e["text"])
    return PairState(info, reference, treatment, feed, facts)


def checked_recording(run_dir: Path | str, field: str = "run_dir") -> PairState:
    """`load_recording`, every damage a ConfigError on `field` naming the folder: what `animate`
    and `dashboard --run` both check before they draw or serve a frame."""
    try:
        return load_recording(run_dir)
    except ConfigError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, MemoryError, RecursionError) as exc:
        raise ConfigError(field, f"{run_dir} holds damaged records ({type(exc).__name__}: {exc})") from None


def held(rows: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """The first n+1 rows, the last one repeated once a run has ended (its final state held)."""
    return [rows[min(i, len(rows) - 1)] for i in range(n + 1)]


class ReplaySession:
    """Same interface as PairSession; reveals one recorded round per step."""

    def __init__(self, run_dir: Path | str):
        self.run_dir = Path(run_dir)
        self.recording = checked_recording(run_dir, "run")
        self.reset()

    def reset(self) -> None:
        self.shown = 0
        self._refresh()

    @property
    def finished(self) -> bool:
        return self.shown >= self.recording.info.horizon

    def step(self) -> bool:
        if self.finished:
            return False
        self.shown += 1
        self._refresh()
        return True

    def _refresh(self) -> None:
        rec, n = self.recording, self.shown
        self.state = PairState(
            rec.info,
            held(rec.reference, n),
            rec.treatment[: n + 1],
            [e for e in rec.feed if int(e["round"]) < n],
            {r: f for r, f in rec.facts.items() if r < n},
        )
