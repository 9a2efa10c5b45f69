"""Run a validated suite: skip finished pairs, feed the executor a bounded window, append each
finished pair to the table, stop cleanly at a call or cost limit, then summarise.

Limits count provider requests (cache hits are free) over the whole experiment folder (finished pairs of
earlier invocations included), so a
budget is a budget; a pair is not started when the spend so far plus the expected spend of the
pairs in flight would pass the limit.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from mam_bench.errors import ConfigError
from mam_bench.experiment.executors import Executor, PairFailed, make_executor
from mam_bench.experiment.progress import Kind, Progress
from mam_bench.experiment.stats import flips, summarize, write_summary
from mam_bench.experiment.suite import Pair, Suite, pairs_of
from mam_bench.experiment.table import TidyTable, row_from_result
from mam_bench.outcome import MAX_POLICY_ERROR_SHARE
from mam_bench.provenance import COMPARED, environment, provenance_id, world_data_hash
from mam_bench.records import dumps, ensure_writable, write_whole, writing
from mam_bench.registry import get_world
from mam_bench.run_dir import DirLock, check_out_dir

LLM_CONTROLLERS = ("llm",)
#: a pair that failed this many times is not tried again by a rerun (its failures stay listed)
MAX_ATTEMPTS = 3
#: LLM pairs in a row whose endpoint answered no call, after which the experiment stops (exit 3)
SILENT_PAIRS = 3


@dataclass
class ExperimentOutcome:
    """What one invocation did; `stopped` names the limit that ended it early, if any."""

    total: int
    skipped: int
    finished: int
    failed: list[tuple[str, str]] = field(default_factory=list)
    given_up: list[str] = field(default_factory=list)
    stopped: str | None = None
    table: pd.DataFrame | None = None
    summary: pd.DataFrame | None = None
    #: reference x treatment status per case, where a world's runs end in more than one status
    flips: pd.DataFrame | None = None
    invalid: int = 0
    #: the stop was the breaker: the endpoint answered none of the last SILENT_PAIRS LLM pairs
    endpoint_down: bool = False


def current_provenance(suite: Suite) -> dict[str, Any]:
    """The experiment's provenance: this process's versions and each world's data hash."""
    worlds = sorted({c.world for c in suite.cases})
    block = environment()
    block["world_data"] = {w: world_data_hash(get_world(w)) for w in worlds}
    return block


def check_provenance(out: Path, suite: Suite, allow_mixed: bool) -> dict[str, Any]:
    """Refuse to resume an experiment that earlier code or data produced, unless mixing is allowed
    (the summary then counts the pairs from the other provenance in its `mixed` column)."""
    current = current_provenance(suite)
    recorded_path = out / "provenance.json"
    if not recorded_path.exists():
        return current
    try:
        recorded = json.loads(recorded_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = {}
    differs = [k for k in COMPARED if k != "world_data" and recorded.get(k) != current.get(k)]
    if recorded.get("world_data") != current["world_data"]:
        differs.append("world_data")
    if differs and not allow_mixed:
        detail = ", ".join(f"{k} {recorded.get(k)!r} -> {current.get(k)!r}" for k in differs if k != "world_data")
        before, now = recorded.get("world_data"), current["world_data"]
        if "world_data" in differs and isinstance(before, dict) and set(before) != set(now):
            # another suite (other worlds), not changed data files
            worlds = f"the suite differs: worlds {', '.join(sorted(before))} -> {', '.join(sorted(now))}"
            detail = ", ".join(x for x in (detail, worlds) if x)
        elif "world_data" in differs:
            detail = ", ".join(x for x in (detail, "world data files changed") if x)
        raise ConfigError(
            "resume",
            f"{out} was produced with a different provenance ({detail}); rerun into a new "
            "folder, or pass --allow-mixed to pool old and new pairs (they are then counted as mixed)",
        )
    return current


def failed_attempts(failures: Path) -> dict[str, int]:
    """pair_id -> how many times it failed so far (a torn or foreign line is skipped)."""
    counts: dict[str, int] = {}
    if not failures.is_file():
        return counts
    for line in failures.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            pid = json.loads(line).get("pair_id")
        except (ValueError, AttributeError):
            continue
        if isinstance(pid, str):
            counts[pid] = counts.get(pid, 0) + 1
    return counts


def pair_dir(out: Path, pair: Pair) -> Path:
    return out / "pairs" / pair.pair_id


def job_of(out: Path, pair: Pair, max_policy_error_share: float = MAX_POLICY_ERROR_SHARE) -> dict[str, Any]:
    """The executor's job. LLM pairs keep their call cache in their run directory, so a rerun
    of an unfinished pair answers its finished calls from the cache instead of the provider."""
    where = pair_dir(out, pair)
    extra = {"cache": str(where / "llm_cache.sqlite")} if pair.case.controller_name in LLM_CONTROLLERS else {}
    if pair.case.controller_name in LLM_CONTROLLERS and "cache" in pair.case.controller_options:
        extra = {}
    spec = pair.spec(extra, max_policy_error_share)
    return {"spec": spec.model_dump(mode="json"), "out": str(where), "pair_id": pair.pair_id}


def spent_by(where: Path) -> tuple[int, float]:
    """Calls and cost a pair's run directory recorded (a failed pair has no result row)."""
    calls = where / "llm_calls.jsonl"
    if not calls.is_file():
        return 0, 0.0
    rows = [json.loads(line) for line in calls.read_text(encoding="utf-8").splitlines() if line.strip()]
    return len(rows), sum(float(r.get("cost") or 0.0) for r in rows)


class _Budget:
    def __init__(self, max_calls: int | None, max_cost: float | None, calls: int, cost: float, pairs: int):
        self.max_calls, self.max_cost = max_calls, max_cost
        self.calls, self.cost, self.pairs = calls, cost, pairs

    @classmethod
    def from_rows(cls, rows: list[dict[str, Any]], max_calls: int | None, max_cost: float | None) -> _Budget:
        """The budget with the finished pairs of earlier invocations already spent."""
        calls = sum(int(float(r["requests"] or 0)) for r in rows)
        return cls(max_calls, max_cost, calls, sum(float(r["cost"] or 0) for r in rows), len(rows))

    def add(self, calls: int, cost: float) -> None:
        self.calls += calls
        self.cost += cost
        self.pairs += 1

    def exhausted(self) -> str | None:
        if self.max_calls is not None and self.calls >= self.max_calls:
            return f"--max-calls {self.max_calls} reached ({self.calls} calls)"
        if self.max_cost is not None and self.cost >= self.max_cost:
            return f"--max-cost {self.max_cost:g} reached (${self.cost:.4f})"
        return None

    def would_pass(self) -> str:
        per = self.calls / self.pairs if self.pairs else 0.0
        limits = " and ".join(
            x
            for x in (
                f"--max-calls {self.max_calls}" if self.max_calls is not None else "",
                f"--max-cost {self.max_cost:g}" if self.max_cost is not None else "",
            )
            if x
        )
        return (
            f"{limits}: the next pair would pass the limit ({self.calls} calls, ${self.cost:.4f} spent; "
            f"about {per:.1f} calls per pair)"
        )

    def pair_cap(self, reserved: float, free_slots: int) -> float | None:
        """The spend one more LLM pair may make (its run's own `max_cost`): the unreserved rest of
        `--max-cost`, split over the free slots, so that the pairs under way can never pass it
        together, however much more than the mean one of them costs."""
        if self.max_cost is None:
            return None
        return max(self.max_cost - self.cost - reserved, 0.0) / max(free_slots, 1)

    def add_failed(self, calls: int, cost: float) -> None:
        """A pair that failed (a guard stop included) still spent what its calls cost."""
        self.calls += calls
        self.cost += cost

    def room_for(self, in_flight: int) -> bool:
        """Would one more pair (at the mean spend per finished pair) stay within the limits?"""
        if self.max_calls is None and self.max_cost is None:
            return True
        if self.pairs == 0:
            return in_flight == 0  # no estimate yet: one pair at a time
        k = in_flight + 1
        if self.max_calls is not None and self.calls + k * self.calls / self.pairs > self.max_calls:
            return False
        if self.max_cost is not None and self.cost + k * self.cost / self.pairs > self.max_cost:
            return False
        return True


def kind_of(pair: Pair) -> Kind:
    """What the progress line's ETA groups a pair with: its case (as the table keys it), its controller."""
    return (pair.case.content_key()[:16], pair.case.controller_name)


def _seconds(value: Any) -> float:
    """A row's wall seconds as a number (0 where a table read back holds none)."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return 0.0
    return seconds if math.isfinite(seconds) and seconds > 0 else 0.0


def run_experiment(
    suite: Suite,
    out: Path | str,
    executor: str | Callable[[], Executor] = "local",
    address: str | None = None,
    jobs: int | None = None,
    max_cost: float | None = None,
    max_calls: int | None = None,
    stream: TextIO | None = None,
    allow_mixed: bool = False,
) -> ExperimentOutcome:
    stream = stream or sys.stderr
    current = check_provenance(Path(out), suite, allow_mixed)  # before any file is touched
    check_out_dir(Path(out))
    with DirLock(out):  # one experiment per folder: a second one gets a clear error
        return _run_locked(suite, ensure_writable(out), current, executor, address, jobs, max_cost, max_calls, stream)


def _run_locked(
    suite: Suite,
    out: Path,
    current: dict[str, Any],
    executor: str | Callable[[], Executor],
    address: str | None,
    jobs: int | None,
    max_cost: float | None,
    max_calls: int | None,
    stream: TextIO,
) -> ExperimentOutcome:
    write_inputs(out, suite, current)
    pairs = pairs_of(suite)
    table = TidyTable(out)
    failures = FailureLog(out / "failures.jsonl")
    given_up = [p.pair_id for p in pairs if not table.done(p.pair_id) and failures.given_up(p.pair_id)]
    todo = [p for p in pairs if not table.done(p.pair_id) and p.pair_id not in set(given_up)]
    outcome = ExperimentOutcome(
        total=len(pairs), skipped=len(pairs) - len(todo) - len(given_up), finished=0, given_up=given_up
    )
    if given_up:
        print(
            f"not retried: {len(given_up)} pairs failed {MAX_ATTEMPTS} times already (see {failures.path})", file=stream
        )
    if outcome.skipped:
        print(f"resuming: {outcome.skipped} of {len(pairs)} pairs already finished in {out}", file=stream)
    order = [p.pair_id for p in pairs]
    done_rows = [table.rows[pid] for pid in order if table.done(pid)]
    budget = _Budget.from_rows(done_rows, max_calls, max_cost)
    seen = [((r["case_key"], r["controller"]), _seconds(r["wall_seconds"])) for r in done_rows]
    progress = Progress(len(pairs), outcome.skipped, stream, left=map(kind_of, todo), seen=seen)
    new_pool = executor if callable(executor) else (lambda: make_executor(executor, address, jobs))
    schedule = _Schedule(out, suite, budget, todo, new_pool)
    try:
        schedule.run(outcome, table, failures, progress)
    finally:
        schedule.close()
        progress.close()
    df = table.finish(order)
    table.close()
    report(outcome, df[df["pair_id"].isin(set(order))], suite, current, out, stream)
    if outcome.stopped:
        left = len(pairs) - outcome.skipped - outcome.finished - len(outcome.failed)
        print(
            f"stopped: {outcome.stopped}; kept {outcome.skipped + outcome.finished} finished pairs, {left} not run. "
            + ("Check the endpoint and rerun" if outcome.endpoint_down else "Raise the limit and rerun")
            + " the same command to continue.",
            file=stream,
        )
    if outcome.failed:
        print(f"{len(outcome.failed)} pairs failed (see {failures.path}); rerun to retry them", file=stream)
    return outcome


def write_inputs(out: Path, suite: Suite, current: dict[str, Any]) -> None:
    """provenance.json, and suite.json as written (defaults unset), so the report re-reads it
    exactly as the user's suite."""
    write_whole(out / "provenance.json", dumps(current, indent=2) + "\n")
    written = suite.model_dump(mode="json", exclude_unset=True)
    write_whole(out / "suite.json", dumps(written, indent=2) + "\n")


class FailureLog:
    """failures.jsonl: one line per failed attempt, so a rerun knows which pairs to give up on."""

    def __init__(self, path: Path):
        self.path = path
        self.attempts = failed_attempts(path)

    def given_up(self, pair_id: str) -> bool:
        return self.attempts.get(pair_id, 0) >= MAX_ATTEMPTS

    def add(self, pair: Pair, error: str) -> None:
        line = {
            "pair_id": pair.pair_id,
            "case": pair.case.label(),
            "seed": pair.seed,
            "repeat": pair.repeat,
            "attempt": self.attempts.get(pair.pair_id, 0) + 1,
            "error": error,
        }
        with writing(self.path), open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")


def unseen_folder(out: Path, result: dict[str, Any]) -> str:
    """Why a pair that finished elsewhere cannot be kept: its folder was written on another machine."""
    host = (result.get("_worker") or {}).get("host", "another machine")
    return (
        f"the pair finished on {host} but its folder is not under {out} here: on a cluster of several "
        "machines the experiment folder must be a shared file system mounted at the same path on every node"
    )


def note_worker(path: Path, pair: Pair, worker: dict[str, Any] | None) -> None:
    """workers.jsonl: which host, process (and Ray node) ran each finished pair."""
    with writing(path), open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"pair_id": pair.pair_id, **(worker or {})}) + "\n")


#: what an unfinished pair keeps for its rerun: its LLM calls' cache, a person's recorded rounds
KEPT = ("llm_cache", "human.jsonl", "human_spec.json")


def clear_leftovers(where: Path) -> None:
    """An unfinished pair's leftovers of a killed run go; only what answers its rerun stays (KEPT)."""
    if where.exists():
        for child in where.iterdir():
            if not child.name.startswith(KEPT):
                shutil.rmtree(child) if child.is_dir() else child.unlink()


class _Schedule:
    """Feeds the executor a window of pairs the budget has room for and collects what finishes."""

    def __init__(self, out: Path, suite: Suite, budget: _Budget, todo: list[Pair], new_pool: Any):
        self.out, self.suite, self.budget = out, suite, budget
        self.queue = list(todo)
        self.new_pool = new_pool
        self.pool = new_pool() if todo else None
        self.in_flight: dict[Any, Pair] = {}
        self.caps: dict[Any, float] = {}  # the max_cost each LLM pair under way was given
        self.silent = 0  # LLM pairs in a row whose endpoint answered nothing

    def breaker(self, outcome: ExperimentOutcome, pair: Pair, answered: bool) -> None:
        """After SILENT_PAIRS LLM pairs in a row with no answered call, start no other pair: a
        dead endpoint costs a few pairs, not hours (the finished records stay; rerun to go on)."""
        if pair.case.controller_name not in LLM_CONTROLLERS:
            return
        self.silent = 0 if answered else self.silent + 1
        if self.silent >= SILENT_PAIRS and not outcome.stopped:
            outcome.stopped = f"the endpoint answered no call in the last {self.silent} LLM pairs"
            outcome.endpoint_down = True

    def run(self, outcome: ExperimentOutcome, table: TidyTable, failures: FailureLog, progress: Progress) -> None:
        while self.queue or self.in_flight:
            outcome.stopped = outcome.stopped or self.budget.exhausted()
            self.fill(outcome.stopped)
            if not self.in_flight:
                if self.queue and not outcome.stopped:
                    outcome.stopped = self.budget.exhausted() or self.budget.would_pass()
                break
            for handle, result, exc in self.pool.wait(list(self.in_flight), timeout=1.0):
                pair = self.in_flight.pop(handle)
                self.caps.pop(handle, None)
                if exc is None and not (pair_dir(self.out, pair) / "result.json").is_file():
                    exc = PairFailed(unseen_folder(self.out, result))
                if exc is not None:
                    self.budget.add_failed(*spent_by(pair_dir(self.out, pair)))
                    error = str(exc) if isinstance(exc, PairFailed) else f"{type(exc).__name__}: {exc}"
                    outcome.failed.append((pair.pair_id, error))
                    progress.dropped(kind_of(pair))
                    failures.add(pair, error)
                    self.breaker(outcome, pair, not (isinstance(exc, PairFailed) and exc.backend))
                    continue
                row = row_from_result(pair, result)
                table.append(row)
                note_worker(self.out / "workers.jsonl", pair, result.get("_worker"))
                self.breaker(outcome, pair, int(row["calls"] or 0) > 0 or not row["first_error"])
                self.budget.add(row["requests"], row["cost"])
                outcome.finished += 1
                progress.finished(kind_of(pair), _seconds(row["wall_seconds"]))
                progress.update(outcome.skipped + outcome.finished, self.budget.calls, self.budget.cost)

    def fill(self, stopped: str | None) -> None:
        """Submit pairs while a slot is free and the budget has room; a pool whose worker died hard
        (the OOM killer) is replaced and the pair goes back to the front of the queue."""
        while self.queue and not stopped and len(self.in_flight) < self.pool.slots:
            if not self.budget.room_for(len(self.in_flight)):
                return
            pair = self.queue.pop(0)
            clear_leftovers(pair_dir(self.out, pair))
            job = job_of(self.out, pair, self.suite.max_policy_error_share)
            cap = self.budget.pair_cap(sum(self.caps.values()), self.pool.slots - len(self.in_flight))
            if cap is not None and pair.case.controller_name in LLM_CONTROLLERS:
                job["spec"]["controller_options"]["max_cost"] = cap
            try:
                handle = self.pool.submit(job)
            except BrokenProcessPool:
                self.queue.insert(0, pair)
                self.pool.shutdown()
                self.pool = self.new_pool()
                return
            self.in_flight[handle] = pair
            self.caps[handle] = cap or 0.0

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def report(
    outcome: ExperimentOutcome, df: pd.DataFrame, suite: Suite, current: dict[str, Any], out: Path, stream: TextIO
) -> None:
    """The summary and flips tables (written beside the pairs), and the invalid pairs' note."""
    outcome.table = df
    outcome.summary = summarize(
        df,
        suite,
        current_provenance={w: provenance_id({**current, "world_data": h}) for w, h in current["world_data"].items()},
    )
    write_summary(outcome.summary, out / "summary.csv")
    outcome.flips = flips(df)
    if len(outcome.flips):
        write_summary(outcome.flips, out / "flips.csv")
    invalid = df[~df["valid"]] if len(df) else df
    if len(invalid):
        first = invalid.iloc[0]
        print(
            f"{len(invalid)} invalid pairs left out of the valid-only rows (controller failed more than "
            f"{suite.max_policy_error_share:.0%} of its decisions; the ITT rows keep them as played); "
            f"first: {first['case']} seed {first['seed']}: "
            f"{first['first_error']}",
            file=stream,
        )
    outcome.invalid = len(invalid)
