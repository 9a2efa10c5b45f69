"""`check_world(WorldClass)`: the conformance check a world must pass before its lifts mean anything.

In the spirit of PettingZoo's API test: run it in your own world's test suite. Each failure names
the property and the seed; `check_world` raises `WorldCheckError` listing all of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from mam_bench import global_draws, model_ids
from mam_bench.audit import audit_counts
from mam_bench.capabilities import SCORING_SETTINGS, RandomActions, RuleActions, misplaced, null_action, offered
from mam_bench.protocol import OK_OUTCOMES
from mam_bench.runner import PairSpec, prepare, round_row, run_async, run_treatment, step_reference
from mam_bench.streams import record_draws, stream
from mam_bench.world import REQUIRED, SteerableWorld, TextRoundTrip, drive, fork, play_round


class WorldCheckError(AssertionError):
    """One or more conformance properties failed (the message lists them)."""


def _strip(row: dict[str, Any]) -> dict[str, Any]:
    """The board a row records (its snapshot); metrics may count who moved, so they compare apart,
    and the influence ids a snapshot names for redrawing differ between the runs by design."""
    return {k: v for k, v in row.items() if k not in ("status", "metrics", "influence", "influence_ids")}


def _prep(world_cls: Any, seed: int, rounds: int, influence: int, params: dict[str, Any]) -> Any:
    spec = PairSpec.build(world=world_cls.name, seed=seed, params=params, influence=influence)
    prep = prepare(spec, world_cls=world_cls)
    prep.horizon = min(rounds, prep.horizon)  # never past the world's own horizon
    return prep


def _reference(prep: Any, rounds: int) -> list[dict[str, Any]]:
    """The first `rounds` reference rows (its final state held once it comes to rest)."""
    world = prep.new_world(treatment=False)
    rows = [round_row(world)]
    while len(rows) <= rounds and not world._done:
        if step_reference(world):
            rows.append(round_row(world))
    return rows


def _treatment(prep: Any, policy: str) -> tuple[Any, list[dict[str, Any]]]:
    from mam_bench.registry import CONTROLLERS, load

    controller = load(CONTROLLERS[policy])(world_cls=prep.world_cls, objective=prep.objective)
    world, rows, _, _ = run_async(run_treatment(prep, controller))
    return world, rows


def null_steering(prep: Any, rounds: int) -> list[str]:
    """`rule` treatment equals the reference row by row (metrics and snapshot) and draw by draw;
    a failure names the round, the first metric that differs (both values) and the agent."""
    with record_draws() as ref_log:
        ref = _reference(prep, rounds)
    with record_draws() as tre_log:
        _, tre = _treatment(prep, "rule")
    out = []
    cls = prep.world_cls
    compared = [m for m in (cls.scoring.metric, cls.scoring.secondary) if m]
    for i, row in enumerate(tre):
        if i < len(ref) and (
            _strip(row) != _strip(ref[i]) or any(row["metrics"][m] != ref[i]["metrics"][m] for m in compared)
        ):
            out.append(f"null steering: round {i}: {_difference(ref[i], row, compared, prep.influence_ids)}")
            break
        held = ref[-1]["metrics"]  # past the reference's rest, the runner compares its held outcome
        if i >= len(ref) and any(row["metrics"][m] != held[m] for m in compared):
            moved = next(m for m in compared if row["metrics"][m] != held[m])
            was, now = _values(held[moved], row["metrics"][moved])
            out.append(
                f"null steering: round {i} moved the outcome of a reference at rest: metric {moved!r} "
                f"is {was} held by the reference, {now} in the treatment"
            )
            break
    played = max(r["round"] for r in ref)
    ref_draws = {k: v for k, v in ref_log.draws.items() if k[1] < played}
    tre_draws = {k: v for k, v in tre_log.draws.items() if k[1] < played}
    if ref_draws != tre_draws:
        out.append("null steering: the rule treatment's per-agent draws differ from the reference's")
    return out


def _values(a: Any, b: Any) -> tuple[str, str]:
    """Two differing values as text that shows they differ (a float at 6 digits, else exactly)."""
    short = tuple(f"{v:.6g}" if isinstance(v, float) else repr(v) for v in (a, b))
    return short if short[0] != short[1] else (repr(a), repr(b))


def _difference(ref: dict[str, Any], tre: dict[str, Any], compared: list[str], influence_ids: Iterable[int]) -> str:
    """What differs first between a reference row and the treatment's: a metric with both values,
    then the agent and attribute (the snapshots' agent lists diffed by id)."""
    said = []
    metric = next((m for m in compared if tre["metrics"][m] != ref["metrics"][m]), None)
    if metric is not None:
        was, now = _values(ref["metrics"][metric], tre["metrics"][metric])
        said.append(f"metric {metric!r} is {was} in the reference, {now} in the treatment")
    agent = _agent_difference(ref.get("agents"), tre.get("agents"))
    if agent:
        said.append(agent)
    elif _strip(ref) != _strip(tre):
        key = next(k for k in sorted({*_strip(ref), *_strip(tre)}) if ref.get(k) != tre.get(k))
        said.append(f"the snapshot's {key!r} differs")
    else:
        ids = ", ".join(str(i) for i in influence_ids)
        said.append(
            f"every agent's state agrees, so the outcome counts agents differently in the two runs; the "
            f"influence agents ({ids}) are counted in one run only: leave them out through self.run.mask_ids "
            "(the same ids in both runs), not self.run.influence_ids (empty in the reference)"
        )
    return "; ".join(said)


def _agent_difference(ref: Any, tre: Any) -> str | None:
    """The first agent (by id) whose snapshot entry differs, and its first differing attribute."""
    if not isinstance(ref, list) or not isinstance(tre, list):
        return None
    if not all(isinstance(a, dict) and "id" in a for a in (*ref, *tre)):
        return None
    before, after = {a["id"]: a for a in ref}, {a["id"]: a for a in tre}
    for aid in sorted({*before, *after}):
        if aid not in after:
            return f"agent {aid} is in the reference only"
        if aid not in before:
            return f"agent {aid} is in the treatment only"
        a, b = before[aid], after[aid]
        if a != b:
            attr = next(k for k in (*a, *(k for k in b if k not in a)) if a.get(k) != b.get(k))
            was, now = _values(a.get(attr), b.get(attr))
            kind = a.get("kind", "agent")
            return f"agent {aid} ({kind}) attribute {attr!r} is {was} in the reference, {now} in the treatment"
    return None


def audit_identity(prep: Any, policy: str) -> list[str]:
    world, rows = _treatment(prep, policy)
    counts = audit_counts(world.run.audit, len(prep.influence_ids), world.round)
    out = []
    if not counts["identity_holds"]:
        out.append(f"audit identity ({policy}): {counts['decisions']} entries, expected {counts['expected']}")
    keys = sorted((e.round, e.actor_id) for e in world.run.audit)
    want = sorted((r, a) for r in range(world.round) for a in prep.influence_ids)
    if keys != want:
        out.append(f"audit identity ({policy}): not one entry per influence agent per round")
    return out


def isolation(prep: Any) -> list[str]:
    """Ordinary agents' streams do not depend on who is steered: their first draw of each stream
    in round 0 is the same when the influence agents play the null action instead of the rule."""
    with record_draws() as ref_log:
        w = prep.new_world(treatment=False)
        play_round(w)
    with record_draws() as tre_log:
        t = prep.new_world(treatment=True)
        play_round(t, {aid: _decision(null_action(t.Action)) for aid in prep.influence_ids})
    ordinary = set(w.actor_ids()) - set(prep.influence_ids)
    ref = {k: v[0] for k, v in ref_log.draws.items() if k[2] in ordinary and k[1] == 0}
    tre = {k: v[0] for k, v in tre_log.draws.items() if k[2] in ordinary and k[1] == 0}
    if not ref:
        return ["isolation: no per-agent draws recorded (stochastic choices must come from agent_stream)"]
    moved = [k for k in ref if k in tre and ref[k] != tre[k]]
    return [f"isolation: steering moved ordinary agents' draws {moved[:3]}"] if moved else []


def _decision(action: dict[str, Any]) -> Any:
    from mam_bench.protocol import Decision

    return Decision(action=dict(action))


def actions(prep: Any) -> list[str]:
    """`null_action` is valid and accepted; `random_action`, where the world has one, is always
    legal (never invalid)."""
    cls, out = prep.world_cls, []
    try:
        cls.Action.model_validate(null_action(cls.Action))
    except ValidationError as exc:
        out.append(f"null_action does not validate against Action: {exc.errors()[0]['msg']}")
    world, _ = _treatment(prep, "stay")
    first = [e.outcome for e in world.run.audit if e.round == 0]
    if any(o not in OK_OUTCOMES for o in first):
        out.append(f"null_action is not accepted in round 0: {first}")
    if not isinstance(cls.Action, RandomActions):
        return out
    world, _ = _treatment(prep, "random")
    bad = [e for e in world.run.audit if e.outcome in ("invalid", "policy_error")]
    if bad:
        out.append(f"random_action is not legal: round {bad[0].round} actor {bad[0].actor_id}: {bad[0].detail}")
    return out


def observation_text(prep: Any) -> list[str]:
    world = prep.new_world(treatment=True)
    out = []
    for aid in prep.influence_ids:
        obs = world.observe(aid)
        text = obs.to_text()
        if not isinstance(text, str) or not text:
            out.append("observation: to_text() gives no text")
        if isinstance(obs, TextRoundTrip) and type(obs).from_text(text) != obs:
            out.append(f"observation: from_text(to_text()) differs for actor {aid}")
    return out


def records_redraw(prep: Any, rounds: int) -> list[str]:
    """Rows survive JSON, and no metric changes between rounds while the snapshot stays the same."""
    rows = _reference(prep, rounds)
    out = []
    for row in rows:
        if json.loads(json.dumps(row)) != row:
            out.append(f"records: round {row['round']} does not survive JSON")
            break
    for a, b in zip(rows, rows[1:]):
        same_picture = {k: v for k, v in a.items() if k not in ("round", "status", "metrics")} == {
            k: v for k, v in b.items() if k not in ("round", "status", "metrics")
        }
        if same_picture and a["metrics"] != b["metrics"]:
            out.append(f"records: metrics change in round {b['round']} but the snapshot does not")
            break
    return out


def steered_rows(
    world: SteerableWorld, rounds: int, seed: int = 0, defer: float = 1 / 3, ask_rule: bool = False
) -> list[str]:
    """Play `rounds` rounds in which a share `defer` of the influence agents defer and the rest play
    a random legal action (the null action in a world without one), each drawn per actor and round
    so that every copy of a world gets the same; one row per round: round, status, metrics,
    snapshot and the whole audit, as JSON text. `ask_rule`: ask the world for each influence
    agent's `rule_action` where the runner asks it for a controller that wants it (the start of
    the round, or the agent's own turn in a world that decides per turn)."""
    from mam_bench.controller import Decision

    rows = []
    for _ in range(rounds):
        if world._done and world.scoring.treatment_stops_early:
            break
        chosen = {}
        for aid in world.run.influence_ids:
            rng = stream(seed, "check.fork", aid, world.round)
            if rng.random() < defer:
                chosen[aid] = Decision.follow_rule()
            elif isinstance(world.Action, RandomActions):
                chosen[aid] = Decision(action=world.Action.random_action(world.observe(aid), rng))
            else:
                chosen[aid] = Decision(action=null_action(world.Action))

        async def decide(ids: Sequence[int]) -> list[Decision]:
            if ask_rule:  # where the runner asks it: at the round's start, or at the agent's turn
                for aid in ids:
                    world.rule_action(aid)  # type: ignore[attr-defined]
            return [chosen[aid] for aid in ids]

        drive(world.aplay_round(decide))
        audit = [e.as_json() for e in world.run.audit]
        rows.append(json.dumps([round_row(world), audit], default=str, sort_keys=True))
    return rows


def rule_action_is_pure(prep: Any) -> list[str]:
    """Asking `rule_action` changes nothing: a treatment whose influence agents are asked it every
    round (as for `mimic` or a planner) plays as one never asked, round by round, with every
    influence agent deferring and with a mix of deferring and acting."""
    out = []
    for defer in (1.0, 1 / 3):
        asked = steered_rows(prep.new_world(treatment=True), prep.horizon, prep.spec.seed, defer, ask_rule=True)
        plain = steered_rows(prep.new_world(treatment=True), prep.horizon, prep.spec.seed, defer)
        if asked != plain:
            first = next(i for i, (a, b) in enumerate(zip(asked, plain)) if a != b)
            who = "every influence agent" if defer == 1 else "a third of the influence agents"
            out.append(
                f"rule_action: asking it changed the world (round {first + 1} differs from a run never asked, "
                f"{who} deferring); compute it on a copy"
            )
            break
    return out


def _answer_rows(world: SteerableWorld, rounds: int, seed: int, played: dict | None = None) -> tuple[list[str], dict]:
    """Rounds in which about half the influence agents (per actor and round) play the rule's answer,
    asked where the runner asks it, and the rest defer; with `played` (what such a run played), the
    same actions played without asking. Returns the rows (as `steered_rows`) and what was played."""
    from mam_bench.controller import Decision

    script: dict[tuple[int, int], Decision] = {} if played is None else played
    rows = []
    for _ in range(rounds):
        if world._done and world.scoring.treatment_stops_early:
            break

        async def decide(ids: Sequence[int]) -> list[Decision]:
            out = []
            for aid in ids:
                key = (world.round, aid)
                if played is None:
                    plays = stream(seed, "check.answer", aid, world.round).random() < 0.5
                    action = world.rule_action(aid)  # type: ignore[attr-defined]
                    script[key] = Decision(action=action) if plays else Decision.follow_rule()
                out.append(script[key])
            return out

        drive(world.aplay_round(decide))
        audit = [e.as_json() for e in world.run.audit]
        rows.append(json.dumps([round_row(world), audit], default=str, sort_keys=True))
    return rows, script


def rule_answer_not_kept(prep: Any) -> list[str]:
    """A world that says its rule's answer is not kept (`rule_answer_kept = False`): agents that play
    the answer they were asked play as agents that play the same actions never asking, round by
    round (what lets a planner's rollouts skip the asking)."""
    asked, played = _answer_rows(prep.new_world(treatment=True), prep.horizon, prep.spec.seed)
    plain, _ = _answer_rows(prep.new_world(treatment=True), prep.horizon, prep.spec.seed, played)
    if asked == plain:
        return []
    first = next((i for i, (a, b) in enumerate(zip(asked, plain)) if a != b), min(len(asked), len(plain)))
    return [
        f"rule_answer_kept: an agent playing the rule's answer it was asked differs from one playing the same "
        f"action unasked (round {first + 1}); set rule_answer_kept = True on the world"
    ]


def fork_equivalence(world_cls: Any, seed: int, rounds: int, influence: int, params: dict[str, Any]) -> list[str]:
    """A fork taken halfway, played forward, equals its world played forward (round by round:
    metrics, snapshot, audit), and playing the fork leaves the world as a world never forked."""
    prep = _prep(world_cls, seed, rounds, influence, params)
    half = max(1, prep.horizon // 2)
    expected = steered_rows(prep.new_world(treatment=True), prep.horizon, seed)[half:]
    world = prep.new_world(treatment=True)
    steered_rows(world, half, seed)
    try:
        twin = fork(world)
    except Exception as exc:  # noqa: BLE001 - reported, with the fix, like every other property
        return [f"fork: the world cannot be copied ({type(exc).__name__}: {exc}); define _fork() on it"]
    out = []
    if steered_rows(twin, prep.horizon - half, seed) != expected:
        out.append(f"fork: a fork taken after round {half}, played forward, differs from its world played forward")
    if steered_rows(world, prep.horizon - half, seed) != expected:
        out.append("fork: playing a fork changed the world it was taken from")
    return out


def contract(world_cls: Any, prep: Any) -> list[str]:
    """The required names are the world's own (not the base class's stubs), and its `scoring`
    names metrics that `metrics()` reports."""
    out = [
        f"contract: {name} is not defined"
        for name in REQUIRED
        if not hasattr(world_cls, name) or getattr(world_cls, name) is getattr(SteerableWorld, name, None)
    ]
    out += [
        f"contract: {name} is defined on the world, where nothing asks for it: it belongs on its "
        + ("Scoring" if name in SCORING_SETTINGS else "Action or Params")
        for name in misplaced(world_cls)
    ]
    if out:
        return out
    scoring = world_cls.scoring
    reported = prep.new_world(treatment=False).metrics()
    wanted = [scoring.metric, *scoring.objective_metrics.values(), *([scoring.secondary] if scoring.secondary else [])]
    return [
        f"contract: scoring names metric {m!r}, which metrics() does not report" for m in wanted if m not in reported
    ]


def check_world(
    world_cls: Any,
    seeds: Iterable[int] = (0, 1, 2),
    rounds: int = 8,
    influence: int = 2,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run every property over `seeds`; raises WorldCheckError naming each failure. Returns counts
    and the optional capabilities the world has (`mam_bench.capabilities.offered`)."""
    with global_draws.checked(), model_ids.released_after():  # its rounds run alone: draws are checked
        return _check_world(world_cls, tuple(seeds), rounds, influence, params)


def _check_world(
    world_cls: Any, seeds: tuple[int, ...], rounds: int, influence: int, params: dict[str, Any] | None
) -> dict[str, Any]:
    failures: list[str] = []
    checked = 0
    for seed in seeds:
        prep = _prep(world_cls, seed, rounds, influence, dict(params or {}))
        for found in (
            contract(world_cls, prep),
            null_steering(prep, prep.horizon),
            audit_identity(prep, "rule"),
            audit_identity(prep, "random") if isinstance(world_cls.Action, RandomActions) else [],
            isolation(prep),
            actions(prep),
            observation_text(prep),
            records_redraw(prep, prep.horizon),
            fork_equivalence(world_cls, seed, rounds, influence, dict(params or {})),
            rule_action_is_pure(prep) if isinstance(world_cls, RuleActions) else [],
            rule_answer_not_kept(prep) if isinstance(world_cls, RuleActions) and not world_cls.rule_answer_kept else [],
        ):
            failures += [f"seed {seed}: {f}" for f in found]
            checked += 1
    if failures:
        raise WorldCheckError(f"{world_cls.__name__} fails check_world:\n  " + "\n  ".join(failures))
    return {"seeds": len(seeds), "checks": checked, "capabilities": offered(world_cls, _landscape(world_cls))}


def _landscape(world_cls: Any) -> Any:
    """The landscape kernel a registered world names (None for an unregistered one)."""
    from mam_bench.registry import get_world, load, registration

    try:
        kernel = registration(world_cls.name).landscape_kernel if get_world(world_cls.name) is world_cls else None
    except Exception:  # noqa: BLE001 - a world no registration names has no kernel
        return None
    return load(kernel) if kernel else None
