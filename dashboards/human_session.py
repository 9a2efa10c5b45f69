"""A live pair whose influence agents a person plays (`--controller human`), and its run folder.

The treatment waits for the page at every round (`HumanController`); the reference steps after
it, so both runs show the same round while the person chooses. The session's folder holds
`human_spec.json` (the pair) and `human.jsonl` (each finished round), so a stopped session
resumes where it stopped. At the horizon the runner plays the pair again from the recorded
choices into the same folder (`arun_pair`, with the stay and mimic baselines), which writes the
records every controller writes; the live and the recorded treatment must end alike. That replay
runs in a process of its own: there its rounds run alone, so a user model's draws from the global
generators are checked as `run` checks them (in the server, other threads draw too).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import multiprocessing
from pathlib import Path
from typing import Any

from mam_bench.capabilities import per_turn
from mam_bench.dashboards.session import BASELINES, PairSession
from mam_bench.errors import ConfigError
from mam_bench.runner import PairSpec, arun_pair, prepare
from mam_bench.steering.human import LOG, HumanController

SPEC = "human_spec.json"


def human_spec(spec: PairSpec) -> dict[str, Any]:
    """What a resumed session must share with the stopped one (the log's path may differ)."""
    options = {k: v for k, v in spec.controller_options.items() if k != "log"}
    return json.loads(spec.model_copy(update={"controller_options": options}).model_dump_json())


def check_out(out: Path, spec: PairSpec | None = None) -> None:
    """The folder a session records into: new, empty, or a stopped session of this very pair."""
    if out.exists() and not out.is_dir():
        raise ConfigError("out", f"{out} is not a directory")
    if (out / "result.json").exists():
        raise ConfigError("out", f"{out} holds a finished run; watch it with `mam-bench dashboard --run {out}`")
    if out.is_dir() and any(out.iterdir()) and not (out / SPEC).is_file():
        raise ConfigError("out", f"{out} holds files of something else; give a new or empty folder")
    if spec is not None and (out / SPEC).is_file():
        try:
            stopped = json.loads((out / SPEC).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise ConfigError("out", f"{out / SPEC} is damaged (not JSON)") from None
        if stopped != human_spec(spec):
            raise ConfigError(
                "out",
                f"{out} holds a session of another pair ({stopped.get('world')}, "
                f"seed {stopped.get('seed')}); give the same world and settings, or a new folder",
            )


class HumanSession(PairSession):
    """`step` blocks until the person has chosen the round (run it off the page's thread)."""

    def __init__(self, spec: PairSpec, out: Path | str):
        self.out = Path(out)
        check_out(self.out, spec)
        self.out.mkdir(parents=True, exist_ok=True)
        spec = spec.model_copy(update={"controller_options": {**spec.controller_options, "log": str(self.out / LOG)}})
        self.result: dict[str, Any] | None = None
        super().__init__(spec)
        (self.out / SPEC).write_text(json.dumps(human_spec(spec), indent=2) + "\n", encoding="utf-8")

    @property
    def human(self) -> HumanController:
        return self.controller  # type: ignore[return-value]

    def reset(self) -> None:
        super().reset()
        world = self.treatment.world
        self.human.per_turn = per_turn(world)

    def step(self) -> bool:
        if self.finished:
            return False
        self.step_treatment()  # waits for the person
        self.step_reference()
        if self.finished:
            self.write_records()
        return True

    def write_records(self) -> None:
        """The run's records, from the recorded choices, beside the session's own log."""
        played = [self.human.played[k] for k in sorted(self.human.played)]
        kept = {k: v for k, v in self.spec.controller_options.items() if k == "time_limit"}
        spec = self.spec.model_copy(update={"controller_options": kept})
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            result = pool.submit(_records_alone, spec.model_dump_json(), str(self.out), played, kept).result()
        live, recorded = self.state.treatment[-1]["metrics"], result["treatment"]["final"]
        if json.dumps(live, sort_keys=True, default=str) != json.dumps(recorded, sort_keys=True, default=str):
            raise RuntimeError(f"the recorded treatment ended at {recorded}, the live one at {live}")
        self.result = result

    def close(self) -> None:
        self.human.abandon()
        super().close()


def _records_alone(spec_json: str, out: str, played: list[dict[str, Any]], kept: dict[str, Any]) -> dict[str, Any]:
    """The pair played again from the recorded choices, in a process of its own (see the module)."""
    spec = PairSpec.model_validate_json(spec_json)
    prep = prepare(spec)  # the world and objective; the controller is the recorded choices
    again = HumanController(prep.world_cls, prep.objective, played=played, **kept)
    return asyncio.run(arun_pair(spec, Path(out), controller=again, baselines=BASELINES))
