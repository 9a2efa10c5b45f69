"""The full prompts of a finished run, rebuilt by replaying its recorded decisions.

A run keeps each prompt's hash (llm_calls.jsonl), not its text. The world is deterministic given
its seed and the decisions, so replaying decisions.jsonl shows every influence agent exactly the
observation it was shown; the world's prompts class turns it into the same messages. Where the
run recorded a hash, the rebuilt prompt must hash to it, or the export stops.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mam_bench.errors import ConfigError
from mam_bench.protocol import Decision, Request


def _hash(system: str, user: str) -> str:
    sent = [{"role": "system", "content": system}, {"role": "human", "content": user}]
    return hashlib.sha256(json.dumps(sent, ensure_ascii=False).encode()).hexdigest()[:16]


def replay_prompts(run: Path, result: dict[str, Any]) -> dict[tuple[int, int], str]:
    """(round, actor) -> the decision prompt's user message (SwarmBench logs that one as `prompt`)."""
    from mam_bench.inputs import KEY as INPUTS_KEY
    from mam_bench.prompts import prompts_for
    from mam_bench.record_schema import read_record, spec_fields
    from mam_bench.records import load_record
    from mam_bench.runner import PairSpec, Treatment, prepare, run_async
    from mam_bench.steering.replay import ReplayController

    spec_data = spec_fields(read_record(load_record(run / "spec.json", "run"), "spec.json"))  # any record version
    spec_data.pop(INPUTS_KEY, None)
    options = spec_data.get("controller_options") or {}
    spec = PairSpec.build(**{**spec_data, "controller": "replay", "controller_options": {"replay": str(run)}})
    prep = prepare(spec)
    settings = {k: options[k] for k in ("post_chars", "message_cap") if k in options}
    prompts = prompts_for(prep.world_cls, prep.objective, **settings)
    recorded = {}
    calls = run / "llm_calls.jsonl"
    if calls.is_file():
        for line in calls.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("phase") == "decision" and row.get("attempt") == 0 and row.get("prompt_hash"):
                recorded[(row["round"], row["actor_id"])] = row["prompt_hash"]
    out: dict[tuple[int, int], str] = {}

    class Recorder(ReplayController):
        async def decide(self, requests: Sequence[Request]) -> list[Decision]:
            for req in requests:
                system, user = prompts.system(req), prompts.user(req, "decision")
                want = recorded.get((req.round, req.actor_id))
                if want is not None and _hash(system, user) != want:
                    raise ConfigError(
                        "keep_prompts",
                        f"the rebuilt prompt of round {req.round}, agent {req.actor_id} does not match "
                        "the recorded hash (the run was made by other code)",
                    )
                out[(req.round, req.actor_id)] = user
            return await super().decide(requests)

    treatment = Treatment(prep, Recorder(prep.world_cls, prep.objective, replay=str(run)))
    horizon = int(result["treatment"]["rounds"])
    while not treatment.finished and treatment.round < horizon:
        run_async(treatment.step())
    return out
