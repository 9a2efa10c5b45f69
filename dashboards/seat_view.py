"""The page of a person's benchmark run (`mam-bench benchmark --controller human`): where the run
stands ("scenario 3 of 26, seed 1000") and the seat of the pair the benchmark gives now.

The benchmark writes the pair to play into its seat file (`human_benchmark.SEAT`); this page
watches the file and plays each pair it names as a human session, a new one per pair.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import solara

from mam_bench.dashboards.config import DashConfig
from mam_bench.dashboards.human_benchmark import progress_text, read_seat
from mam_bench.records import write_whole

#: seconds between two looks at the seat file
LOOK = 0.3


@solara.component
def SeatView(path: str, paired_view: Callable[..., Any]) -> None:
    job = solara.use_reactive(read_seat(path))

    def watch(cancel: threading.Event) -> None:
        while not cancel.wait(LOOK):
            now = read_seat(path)
            if now is not None and now != job.value:
                job.value = now

    solara.use_thread(watch, dependencies=[path])
    seat = job.value
    if seat is None:
        solara.Info("Waiting for the benchmark's first pair...", classes=["mam-seat-status"])
        return
    if seat.get("finished"):
        if not seat.get("shown"):  # the benchmark stops the server once the page has said it
            write_whole(Path(path), json.dumps({**seat, "shown": True}) + "\n")
        out = str(Path(path).parent)
        solara.Success(
            f"The benchmark is played ({seat.get('finished_pairs', 0)} pairs this time); its folder {out} is "
            f"scored by: mam-bench report {out} --leaderboard (the command prints it as it ends)",
            classes=["mam-benchmark-done"],
        )
        return
    spec = seat["spec"]
    solara.Text(progress_text(seat), classes=["mam-progress"], style="font-weight:bold;font-size:15px")
    cfg = DashConfig(world=spec["world"], seed=spec["seed"], controller="human", out=seat["out"], spec=json.dumps(spec))
    paired_view(cfg, None).key(seat["pair_id"])  # a new pair is a new session, not a changed one
