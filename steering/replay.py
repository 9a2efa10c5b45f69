"""Replays a run's decisions.jsonl (posts, actions, policy errors) without any model.

The world is deterministic given its seed, so replaying the recorded decisions of the same spec
reproduces the treatment: a check that the records hold everything, and a free rerun of a paid one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from mam_bench.controller import Controller, Decision, Request
from mam_bench.errors import ConfigError
from mam_bench.records import read_jsonl


class ReplayController(Controller):
    name = "replay"
    posts = True

    def __init__(self, world_cls: Any, objective: str = "", replay: str | None = None, **_: Any):
        if not replay:
            raise ConfigError("replay", "give --replay RUN_DIR (a run directory with decisions.jsonl)")
        path = Path(replay)
        path = path / "decisions.jsonl" if path.is_dir() else path
        if not path.exists():
            raise ConfigError("replay", f"{path} does not exist")
        self.source = str(path)
        self.rows: dict[tuple[int, int], dict[str, Any]] = {}
        for row in read_jsonl(path):
            self.rows[(int(row["round"]), int(row["actor_id"]))] = row

    async def post(self, requests: Sequence[Request]) -> list[str | None]:
        return [(self.rows.get((r.round, r.actor_id)) or {}).get("post") for r in requests]

    async def decide(self, requests: Sequence[Request]) -> list[Decision]:
        return [self._decision(self.rows.get((r.round, r.actor_id))) for r in requests]

    @staticmethod
    def _decision(row: dict[str, Any] | None) -> Decision:
        if row is None:
            return Decision.policy_error("replay: no recorded decision for this actor and round")
        if row.get("error"):
            return Decision.policy_error(row["error"], raw=row.get("raw"))
        if row.get("deferred"):
            return Decision.follow_rule()
        return Decision(action=row.get("decision"), message=row.get("message"), raw=row.get("raw"))

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "decisions": len(self.rows)}


def make_replay_controller(world_cls: Any, objective: str = "", **options: Any) -> ReplayController:
    return ReplayController(world_cls, objective, **options)
