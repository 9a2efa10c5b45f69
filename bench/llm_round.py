"""One Schelling round (post and act) with 16 LLM influence agents against a loopback server
answering in 300 ms: round wall time / per-call latency. Sequential calls would give 32; the
goal is at most 2.5 (both phases concurrent across agents). Each repeat plays three rounds
with a fresh controller: the first also opens the 16 connections, the later ones are what
every other round of a run costs; both are reported. The baseline is measured in the same run
(these machines are noisy): one agent's call alone through the same client, server and prompt;
the ratio against the nominal server latency is printed beside it.

    python bench/llm_round.py [--latency 0.3] [--one-call]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from mam_bench.board import CoordinationBoard
from mam_bench.models.schelling.model import SchellingWorld
from mam_bench.protocol import Request
from mam_bench.runner import run_async
from mam_bench.steering.llm import LLMController
from mam_bench.world import play_round


async def one_round(ctl: LLMController, world: SchellingWorld, board: CoordinationBoard) -> float:
    ids = world.run.influence_ids

    def requests(phase: str) -> list[Request]:
        return [
            Request("schelling", a, world.round, "integrate", world.observe(a), board.view(world.round), phase)
            for a in ids
        ]

    started = time.perf_counter()
    posts = await ctl.post(requests("coordination"))
    for a, p in zip(ids, posts):
        if p:
            board.post(world.round, a, p)
    decisions = await ctl.decide(requests("decision"))
    play_round(world, dict(zip(ids, decisions)))
    return time.perf_counter() - started


async def one_call(ctl: LLMController, world: SchellingWorld, board: CoordinationBoard) -> float:
    """The baseline: one agent's decision alone, through the same client, server and prompt."""
    a = world.run.influence_ids[0]
    req = Request("schelling", a, world.round, "integrate", world.observe(a), board.view(world.round), "decision")
    started = time.perf_counter()
    await ctl._all([req], "one_call" if ctl.options.one_call else "decision")
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.3)
    ap.add_argument("--one-call", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("MAM_BENCH_KEY", "sk-bench")
    # the server runs in its own process, as a real provider would: no GIL shared with the client
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.support.openai_server", "--latency", str(args.latency)],
        cwd=Path(__file__).resolve().parents[1],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        base_url = f"http://127.0.0.1:{int(server.stdout.readline())}/v1"
        first, later, single = [], [], []
        for _ in range(args.repeats):
            ctl = LLMController(
                SchellingWorld,
                "integrate",
                model="openai:bench",
                base_url=base_url,
                api_key_env="MAM_BENCH_KEY",
                max_concurrency=16,
                one_call=args.one_call,
            )
            world = SchellingWorld(
                seed=22,
                influence_ids=[*range(8), *range(150, 158)],
                mask_ids=[*range(8), *range(150, 158)],
                role="treatment",
            )
            board = CoordinationBoard()
            ctl.bind("schelling", "integrate", 22)

            async def run() -> tuple[list[float], list[float]]:
                try:  # round 0 opens the connections; rounds 1-2 are what the rest of a run costs
                    walls = [await one_round(ctl, world, board) for _ in range(3)]
                    alone = [await one_call(ctl, world, board) for _ in range(3)]
                    return walls, alone
                finally:
                    await ctl.aclose()

            walls, alone = run_async(run())
            first.append(walls[0])
            later.extend(walls[1:])
            single.extend(alone)
            print(
                "round walls "
                + " ".join(f"{w:.3f}s" for w in walls)
                + "  single calls "
                + " ".join(f"{w:.3f}s" for w in alone)
                + f"  (16 agents, {'one call' if args.one_call else 'post + act'})"
            )
        call = statistics.median(single)
        print(
            f"baseline: one call alone through the same stack, median {call:.3f}s (server latency {args.latency:.3f}s)"
        )
        for label, values in (("first round of a run", first), ("later rounds", later)):
            m = statistics.median(values)
            print(
                f"{label}: round / measured call {m / call:.2f} "
                f"(best {min(values) / call:.2f}, worst {max(values) / call:.2f});"
                f" round / nominal latency {m / args.latency:.2f}  (goal <= 2.5; sequential would be 32)"
            )
    finally:
        server.stdin.close()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
