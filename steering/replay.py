"""Replays a run's decisions.jsonl (posts, actions, policy errors) without any model.

The world is deterministic given its seed, so replaying the recorded decisions of the same spec
reproduces the treatment: a check that the records hold everything, and a free rerun of a paid one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mam_bench.controller import Controller
from mam_bench.errors import ConfigError
from mam_bench.protocol import Decision, Request
from mam_bench.record_schema import read_record
from mam_bench.records import CHAIN_KEY, chain_link, read_jsonl


def verify_chain(path: Path, rows: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The rows of a chained record, each line's chain checked against the one before it: an
    edited, reordered, dropped or inserted line is a ConfigError naming the first bad line."""
    rows = read_jsonl(path) if rows is None else rows
    previous = ""
    for number, row in enumerate(rows, 1):
        link = row.get(CHAIN_KEY)
        if not isinstance(link, str):
            raise ConfigError(
                "replay", f"{path} line {number} carries no chain (recorded by an older version, or edited)"
            )
        if link != chain_link(previous, row):
            raise ConfigError(
                "replay",
                f"{path} line {number} does not match its chain (the record was edited, reordered or "
                "cut); it cannot be trusted",
            )
        previous = link
    return rows


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
        if not path.is_file():
            raise ConfigError("replay", f"{path} is not a file")
        self.source = str(path)
        self.rows: dict[tuple[int, int], dict[str, Any]] = {}
        try:
            recorded = verify_chain(path, read_jsonl(path))
        except ConfigError as exc:
            raise ConfigError("replay", exc.message) from None
        for number, row in enumerate(recorded, 1):
            try:
                key = (int(row["round"]), int(row["actor_id"]))
            except (KeyError, TypeError, ValueError):
                raise ConfigError("replay", f"{path} row {number} has no integer round and actor_id") from None
            if key in self.rows:
                raise ConfigError("replay", f"{path} holds two decisions for round {key[0]}, actor {key[1]}")
            self.rows[key] = row
        if not self.rows:
            raise ConfigError("replay", f"{path} holds no decisions")

    def verify_source(self, spec: Any, prep: Any) -> None:
        """The recorded run must be this very pair: world, seed, parameters, objective, influence
        ids and horizon; a replay of anything else would report a lift for a run that never was."""
        folder = Path(self.source).parent
        result_file = folder / "result.json"
        if not result_file.is_file():
            raise ConfigError(
                "replay",
                f"{folder} holds no result.json (an unfinished, interrupted or foreign run cannot be replayed)",
            )
        try:
            recorded = json.loads(result_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            raise ConfigError("replay", f"{result_file} is damaged (not JSON)") from None
        recorded = read_record(recorded, result_file.name) if isinstance(recorded, dict) else {}
        treatment = recorded.get("treatment")
        played = treatment.get("rounds") if isinstance(treatment, dict) else None
        if not isinstance(played, int) or isinstance(played, bool) or played < 0:
            raise ConfigError("replay", f"{result_file} is damaged (no treatment rounds)")
        mine = {
            "world": spec.world,
            "seed": spec.seed,
            "params": prep.params.as_json(),
            "objective": prep.objective,
            "influence_ids": list(prep.influence_ids),
            "horizon": prep.horizon,
        }
        recorded.setdefault("horizon", played)  # runs recorded before result.json named the horizon
        if isinstance(recorded.get("params"), dict):  # a parameter added since, played at its default
            gained = later_defaults(prep.params, recorded["params"])
            recorded["params"] = {**{k: v for k, v in gained.items() if k in mine["params"]}, **recorded["params"]}
        for name, value in mine.items():
            if json.loads(json.dumps(recorded.get(name), default=str)) != json.loads(json.dumps(value, default=str)):
                raise ConfigError(
                    "replay", f"the recorded run has another {name} ({recorded.get(name)!r}, this run: {value!r})"
                )
        if played > prep.horizon:
            raise ConfigError("replay", f"{result_file} is damaged ({played} rounds played, horizon {prep.horizon})")
        ids = set(prep.influence_ids)
        for (r, actor), _ in self.rows.items():
            if actor not in ids or not 0 <= r < played:
                raise ConfigError(
                    "replay",
                    f"{self.source} holds a decision for actor {actor} in round {r}, "
                    "which the recorded run has not (tampered or foreign records)",
                )
        if len(self.rows) != len(ids) * played:
            raise ConfigError(
                "replay",
                f"{self.source} holds {len(self.rows)} decisions, expected "
                f"{len(ids)} x {played} (a torn or partial record)",
            )

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


def later_defaults(params: Any, recorded: dict[str, Any]) -> dict[str, Any]:
    """The defaults of the parameters a world gained after a run was recorded (the run played as
    if it had them at their defaults); a later parameter set to another value still differs."""
    fields = type(params).model_fields
    return {
        k: json.loads(json.dumps(f.get_default(call_default_factory=True), default=str))
        for k, f in fields.items()
        if k not in recorded and not f.is_required()
    }
