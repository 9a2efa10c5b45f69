"""Schelling reference landscapes at speed, with the ratio against a plain per-agent Mesa model.

    python bench/landscape.py                      # both grids + the Mesa ratio
    python bench/landscape.py --grid pilot         # the pilot's grid: 23 x 7 x 20 seeds, cap 500 (3,220 runs),
                                                   # then the same grid through `mam-bench landscape`,
                                                   # in both stream designs (--streams pilot|isolated)
    python bench/landscape.py --grid boards        # boards 20/60/100 x 9 vacancies x 23 x 50 seeds, cap 30 (31,050)
    python bench/landscape.py --boards 20 --seeds 5 --grid boards    # a subset
    python bench/landscape.py --grid none --sample 12                # only the ratio

The Mesa yardstick below is what a newcomer would write from the rule: CellAgents on an
OrthogonalMooreGrid, each unhappy agent scans every vacancy. It draws from the same streams,
so its results must equal the kernel's; the script checks that on every sampled run. Both use the
pilot's shared streams (`streams=pilot`). The kernel replays both stream designs without leaving
numba (the isolated design's per-agent streams through `fast.compiled_streams`).
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import mesa
from mesa.discrete_space import CellAgent, OrthogonalMooreGrid

from mam_bench.models.schelling.fast.runs import fast_reference_outcome
from mam_bench.models.schelling.params import LANDSCAPE_THRESHOLDS, LANDSCAPE_VACANCIES, SchellingParams
from mam_bench.models.schelling.seeding import ORDER, TIES, initial_board, stream_words
from mam_bench.streams import seeded

BOARD_VACANCIES = ("1/100", "1/40", "1/20", "1/10", "1/5", "1/4", "3/10", "2/5", "1/2")


# --- the straightforward Mesa implementation (the yardstick) -------------------------------------
class PlainResident(CellAgent):
    def __init__(self, model: PlainSchelling, cell, actor_id: int, group: int) -> None:
        super().__init__(model)
        self.cell, self.actor_id, self.group = cell, actor_id, group

    def counts_at(self, cell) -> tuple[int, int]:
        """(same group, occupied) among the cell's neighbours, not counting myself."""
        same = occ = 0
        for n in cell.neighborhood:
            for other in n.agents:
                if other is self:
                    continue
                occ += 1
                same += other.group == self.group
        return same, occ

    def content_at(self, cell) -> bool:
        same, occ = self.counts_at(cell)
        th = self.model.threshold
        return occ == 0 or Fraction(same, occ) >= th


class PlainSchelling(mesa.Model):
    """Per-agent reference rule: every unhappy agent scans every start-of-round vacancy."""

    def __init__(self, params: SchellingParams, seed: int) -> None:
        super().__init__(seed=seed)
        self.size, self.threshold = params.size, params.threshold
        self.grid = OrthogonalMooreGrid((params.size, params.size), torus=True, capacity=1, random=self.random)
        board = initial_board(params, seed)
        self.residents: list[PlainResident] = [None] * params.n_agents  # type: ignore[list-item]
        for r in range(params.size):
            for c in range(params.size):
                aid = int(board[r, c])
                if aid >= 0:
                    self.residents[aid] = PlainResident(self, self.grid[(r, c)], aid, int(aid >= params.n_a))
        self.order = seeded(stream_words(ORDER, params, seed))
        self.ties = seeded(stream_words(TIES, params, seed))
        self.status, self.rounds = "running", 0

    def step(self) -> None:
        unhappy = [a.actor_id for a in self.residents if not a.content_at(a.cell)]
        if not unhappy:
            self.status, self.running = "equilibrium", False
            return
        empties = sorted(
            (c for c in self.grid.all_cells if c.is_empty), key=lambda c: c.coordinate[0] * self.size + c.coordinate[1]
        )
        taken: set = set()
        moves = []
        for aid in self.order.permutation(sorted(unhappy)):
            agent = self.residents[int(aid)]
            r0, c0 = agent.cell.coordinate
            best, ties = None, []
            for cell in empties:
                if cell in taken or not agent.content_at(cell):
                    continue
                r, c = cell.coordinate
                dr, dc = abs(r - r0), abs(c - c0)
                d = max(min(dr, self.size - dr), min(dc, self.size - dc))
                if best is None or d < best:
                    best, ties = d, [cell]
                elif d == best:
                    ties.append(cell)
            if not ties:
                continue
            pick = ties[int(self.ties.integers(len(ties)))] if len(ties) > 1 else ties[0]
            taken.add(pick)
            moves.append((agent, pick))
        if not moves:
            self.status, self.running = "blocked", False
            return
        for agent, dest in moves:  # destinations were empty at round start, so order is irrelevant
            agent.cell = dest
        self.rounds += 1


def mesa_outcome(params: SchellingParams, seed: int, cap: int) -> tuple[str, int]:
    model = PlainSchelling(params, seed)
    while model.running and model.rounds < cap:
        model.step()
    return (model.status if model.status != "running" else "horizon_exhausted"), model.rounds


# --- the landscapes ---------------------------------------------------------------------------------
def job_params(size: int, t: str, v: str, streams: list[str]) -> SchellingParams:
    """A job is (size, threshold, vacancy, seed, cap[, streams]); pilot streams unless named."""
    return _cell_params(size, t, v, streams[0] if streams else "pilot")


@lru_cache(maxsize=4096)
def _cell_params(size: int, t: str, v: str, streams: str) -> SchellingParams:
    """Validated once per cell, not per seed (pydantic costs a tenth of a small run)."""
    return SchellingParams.from_strings({"size": str(size), "threshold": t, "vacancy": v, "streams": streams})


def _run(job: tuple[int, str, str, int, int] | tuple[int, str, str, int, int, str]) -> dict:
    size, t, v, seed, cap, *streams = job
    p = job_params(size, t, v, streams)
    return {"size": size, "threshold": t, "vacancy": v, "seed": seed, **fast_reference_outcome(p, seed, cap)}


def _run_batch(jobs: list[tuple]) -> list[dict]:
    return [_run(j) for j in jobs]


def batches(jobs: list[tuple], workers: int) -> list[list[int]]:
    """Job indices in batches, biggest boards first: a pool that ends on a few small batches
    keeps both cores busy to the end (one 100x100 batch left for one worker idles the other)."""
    if workers <= 1:
        return [list(range(len(jobs)))]
    by_cost = sorted(range(len(jobs)), key=lambda i: -jobs[i][0])  # stable: cells stay together
    per = max(1, len(jobs) // (64 * workers))
    return [by_cost[k : k + per] for k in range(0, len(by_cost), per)]


def pilot_jobs(seeds: int, streams: str = "pilot") -> list[tuple]:
    return [
        (20, str(t), str(v), s, 500, streams)
        for t in LANDSCAPE_THRESHOLDS
        for v in LANDSCAPE_VACANCIES
        for s in range(seeds)
    ]


def board_jobs(boards: list[int], seeds: int, vacancies: list[str]) -> list[tuple]:
    return [
        (b, str(t), v, s, 30) for b in boards for v in vacancies for t in LANDSCAPE_THRESHOLDS for s in range(seeds)
    ]


def sweep(name: str, jobs: list[tuple], workers: int, out: Path | None) -> list[dict]:
    started = time.perf_counter()
    rows: list[dict] = [{}] * len(jobs)
    groups = batches(jobs, workers)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        for group, done in zip(groups, pool.map(_run_batch, [[jobs[i] for i in g] for g in groups])):
            for i, row in zip(group, done):
                rows[i] = row
    secs = time.perf_counter() - started
    print(f"{name}: {len(rows)} runs in {secs:.2f} s = {len(rows) / secs:.0f} runs/s ({workers} processes)")
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{name}.csv"
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"  -> {path}")
    return rows


def _cli_seconds(thresholds: str, vacancies: str, seeds: str, workers: int, streams: str) -> tuple[float, str]:
    """Wall seconds of one `mam-bench landscape` in a fresh process, and its own runs line."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "mam_bench",
            "landscape",
            "schelling",
            "--thresholds",
            thresholds,
            "--vacancies",
            vacancies,
            "--seeds",
            seeds,
            "--max-rounds",
            "500",
            "--size",
            "20",
            "--jobs",
            str(workers),
            "--param",
            f"streams={streams}",
            "--out",
            str(Path(tmp) / "pilot-cli.csv"),
        ]
        started = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"mam-bench landscape failed: {done.stderr.strip()}")
    inner = next((line for line in done.stdout.splitlines() if " runs in " in line), "")
    return secs, inner.split(" -> ")[0]


def cli_times(seeds: int, workers: int, streams: str) -> tuple[float, str, float]:
    """The pilot grid through `mam-bench landscape` (a fresh process, as a user runs it): the wall
    time of the whole command, start-up included, its own runs line, and the wall time of a
    one-run landscape, which shows the fixed start-up (Python, pydantic, numba and the cached
    kernel) that does not grow with the grid."""
    thresholds = ",".join(str(t) for t in LANDSCAPE_THRESHOLDS)
    vacancies = ",".join(str(v) for v in LANDSCAPE_VACANCIES)
    secs, inner = _cli_seconds(thresholds, vacancies, f"0-{seeds - 1}", workers, streams)
    return secs, inner, _cli_seconds("1/2", "1/4", "0", 1, streams)[0]


def report_cli(streams: str, kernel: list[float], cli: list[tuple[float, str, float]]) -> None:
    """CLI against kernel for the same grid and stream design, best with best (the two took turns,
    so a burst of load on a shared machine decides neither figure); every time is printed."""
    walls = [c[0] for c in cli]
    best = walls.index(min(walls))
    print(
        f"pilot ({streams} streams) via CLI: {walls[best]:.2f} s wall for the same grid ({cli[best][1]}); "
        f"kernel {min(kernel):.2f} s -> CLI/kernel {walls[best] / min(kernel):.2f}x, "
        f"CLI overhead {walls[best] - min(kernel):.2f} s, best of {len(walls)} each "
        f"(CLI {', '.join(f'{x:.2f}' for x in walls)}; kernel {', '.join(f'{x:.2f}' for x in kernel)}); "
        f"a one-run landscape takes {min(c[2] for c in cli):.2f} s: the fixed start-up; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )


def report_cells(rows: list[dict], spots: list[tuple[str, str]]) -> None:
    for t, v in spots:
        sats = [r["final_satisfaction"] for r in rows if r["threshold"] == t and r["vacancy"] == v and r["size"] == 20]
        if sats:
            print(
                f"  cell threshold {t}, vacancy {v}: mean satisfaction {statistics.fmean(sats):.4f}, "
                f"SD {statistics.stdev(sats) if len(sats) > 1 else 0:.4f} over {len(sats)} seeds"
            )


def ratio(sample: list[tuple]) -> None:
    """Same runs through the Mesa yardstick and the kernel; results must match.

    Each side runs the sample back to back, as a landscape would (interleaving them would let
    the Mesa runs flush the kernel's caches); the kernel is loaded once before timing, since a
    landscape pays its compilation once, not per run.
    """
    params = [(job_params(size, t, v, streams), seed, cap) for size, t, v, seed, cap, *streams in sample]
    fast_reference_outcome(*params[0])
    a = time.perf_counter()
    mesa_results = [mesa_outcome(p, seed, cap) for p, seed, cap in params]
    b = time.perf_counter()
    fast_results = [fast_reference_outcome(p, seed, cap) for p, seed, cap in params]
    c = time.perf_counter()
    for (size, t, v, seed, *_), got, fast in zip(sample, mesa_results, fast_results):
        if got != (fast["status"], fast["rounds"]):
            raise SystemExit(
                f"MISMATCH size {size} t {t} v {v} seed {seed}: mesa {got} kernel {fast['status']}/{fast['rounds']}"
            )
    t_mesa, t_fast = b - a, c - b
    print(
        f"ratio on {len(sample)} sampled runs (same results): Mesa per-agent {t_mesa:.2f} s, kernel {t_fast:.4f} s "
        f"-> {t_mesa / t_fast:.0f}x"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grid", choices=("all", "pilot", "boards", "none"), default="all")
    ap.add_argument("--seeds", type=int, default=None, help="seeds per cell (default 20 pilot, 50 boards)")
    ap.add_argument("--boards", default="20,60,100")
    ap.add_argument("--vacancies", default=",".join(BOARD_VACANCIES), help="board-grid vacancy levels")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample", type=int, default=40, help="runs for the Mesa ratio (0 = skip)")
    ap.add_argument("--out", type=Path, default=None, help="write pilot.csv / boards.csv here")
    ap.add_argument("--no-cli", dest="cli", action="store_false", help="skip timing the pilot grid through the CLI")
    ap.add_argument("--repeats", type=int, default=3, help="times each of kernel and CLI is timed (best is compared)")
    ap.add_argument(
        "--streams",
        choices=("pilot", "isolated", "both"),
        default="both",
        help="stream design of the pilot grid, kernel and CLI alike (isolated is the CLI's default)",
    )
    args = ap.parse_args(argv)
    fast_reference_outcome(SchellingParams(streams="pilot"), 0)  # compile (or load the numba cache) before forking
    if args.grid in ("all", "pilot"):
        for streams in ("pilot", "isolated") if args.streams == "both" else (args.streams,):
            name = "pilot" if streams == "pilot" else f"pilot-{streams}"
            kernel_secs, cli = [], []
            for rep in range(max(1, args.repeats) if args.cli else 1):  # kernel and CLI take turns
                started = time.perf_counter()
                rows = sweep(name, pilot_jobs(args.seeds or 20, streams), args.jobs, args.out if rep == 0 else None)
                kernel_secs.append(time.perf_counter() - started)
                if args.cli:
                    cli.append(cli_times(args.seeds or 20, args.jobs, streams))
            report_cells(rows, [("1/2", "1/4"), ("3/4", "1/4"), ("6/7", "1/4")])
            if args.cli:
                report_cli(streams, kernel_secs, cli)
    if args.grid in ("all", "boards"):
        boards = [int(b) for b in args.boards.split(",")]
        sweep("boards", board_jobs(boards, args.seeds or 50, args.vacancies.split(",")), args.jobs, args.out)
    if args.sample:
        pool = (
            pilot_jobs(20)[::97][: args.sample // 2]
            + board_jobs([20, 60], 50, list(BOARD_VACANCIES))[::331][: args.sample - args.sample // 2]
        )
        ratio(pool)
        busy = [(20, "3/4", "1/4", seed, 500) for seed in range(max(2, args.sample // 4))]
        print("busy sample (threshold 3/4, vacancy 1/4, 20x20, cap 500: runs with real dynamics):")
        ratio(busy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
