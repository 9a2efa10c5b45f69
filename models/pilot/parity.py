"""`mam-bench parity pilot` (entry point `mam_bench.parity`: pilot): our reference runs of the
pilot's two current worlds (Schelling `rule=pilot_v2`, the Civil Violence cascade) stepped beside
the rules-only re-derivation of the pilot's code (`pilot_worlds.py`, numpy only): each run's first
differing step, or none. The command (mam_bench/commands/parity.py) reads `WORLDS`, `cases` and
`first_difference`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mam_bench.errors import ConfigError

#: the pilot's settings by its own names, defaults its default suite's cases (seed aside)
SCHELLING = dict(size=20, tolerance=0.7, vacancy=0.15, max_steps=30, vision=1, controlled=16)
CASCADE = dict(
    size=20,
    citizen_density=0.54,
    police_density=0.055,
    vision=2,
    threshold=0.0,
    mean=0.0,
    std=0.7,
    max_jail=12,
    max_steps=30,
    role="citizen",
    controlled=16,
)
WORLDS = {"schelling": SCHELLING, "civil_violence_cascade": CASCADE}
#: the cascade's pilot names that ours spell otherwise
CASCADE_NAMES = {"mean": "preference_mean", "std": "preference_std", "role": "controlled_role"}
#: metrics compared to this absolute tolerance (the same arithmetic in another order)
TOLERANCE = 1e-12


def cases(world: str | None, pairs: list[str] | None) -> dict[str, dict[str, Any]]:
    """Each chosen world's settings (None: both) with the --param overrides, typed by the defaults."""
    if world is not None and world not in WORLDS:
        raise ConfigError("world", f"the pilot has no world {world!r} (known: {', '.join(WORLDS)})")
    chosen = list(WORLDS) if world is None else [world]
    out = {w: dict(WORLDS[w]) for w in chosen}
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise ConfigError("param", f"expected KEY=VALUE, got {pair!r}")
        owners = [w for w in chosen if key in out[w]]
        if not owners:
            known = sorted({k for w in chosen for k in out[w]})
            raise ConfigError(f"param.{key}", f"not a pilot setting of {', '.join(chosen)} (known: {', '.join(known)})")
        for w in owners:
            out[w][key] = typed(key, text, WORLDS[w][key])
    if "schelling" in out:
        s = out["schelling"]
        agents = s["size"] ** 2 - round(s["size"] ** 2 * s["vacancy"])
        if agents % 2:
            raise ConfigError(
                "param.vacancy",
                f"size {s['size']} and vacancy {s['vacancy']} leave {agents} agents; the re-derivation plays the "
                "pilot's two equal halves only (an even count)",
            )
    return out


def typed(key: str, text: str, default: Any) -> Any:
    try:
        value = type(default)(text)
    except ValueError:
        raise ConfigError(f"param.{key}", f"expected a {type(default).__name__}, got {text!r}") from None
    if key == "role" and value not in ("citizen", "police"):
        raise ConfigError("param.role", f"expected citizen or police, got {text!r}")
    if isinstance(value, (int, float)) and key not in ("threshold", "mean") and value < 0:
        raise ConfigError(f"param.{key}", f"must not be negative, got {text!r}")
    return value


def ours(world: str, seed: int, case: dict[str, Any]) -> tuple[list[Any], list[float], str]:
    """Our reference run of one case: states, the scored metric and the status, one per step."""
    from mam_bench.runner import PairSpec, prepare, run_reference

    if world == "schelling":
        params = {
            "rule": "pilot_v2",
            "size": str(case["size"]),
            "vision": str(case["vision"]),
            "rounds": str(case["max_steps"]),
            "threshold": str(Fraction(str(case["tolerance"]))),
            "vacancy": str(Fraction(str(case["vacancy"]))),
        }
        state, metric = "positions", "oeh"
    else:
        params = {CASCADE_NAMES.get(k, k): str(v) for k, v in case.items() if k != "controlled"}
        state, metric = "locations", "participation"
    spec = PairSpec.build(world=world, seed=seed, params=params, influence=case["controlled"])
    _, rows = run_reference(prepare(spec))
    states = [r[state] if world == "schelling" else [None if c is None else tuple(c) for c in r[state]] for r in rows]
    return states, [r["metrics"][metric] for r in rows], str(rows[-1]["status"])


def pilot(world: str, seed: int, case: dict[str, Any]) -> tuple[list[Any], list[float], str]:
    """The re-derivation's run of one case (looked up at call time, so a test can mutate a rule)."""
    from mam_bench.models.pilot import pilot_worlds

    if world == "schelling":
        return pilot_worlds.schelling_reference(seed=seed, **case)
    return pilot_worlds.cascade_reference(seed=seed, **case)


def first_difference(world: str, seed: int, case: dict[str, Any]) -> tuple[int, str] | None:
    """The first step (0: the set-up) whose state or metric differs, and how; None if none does."""
    p_states, p_metric, p_end = pilot(world, seed, case)
    o_states, o_metric, o_end = ours(world, seed, case)
    for step in range(max(len(p_states), len(o_states))):
        if step >= len(p_states) or step >= len(o_states):
            who, other = ("the pilot", "ours") if step >= len(p_states) else ("ours", "the pilot")
            return step, f"{who} stopped after step {step - 1}, {other} played step {step}"
        if p_states[step] != o_states[step]:
            agent = next(i for i, (a, b) in enumerate(zip(p_states[step], o_states[step])) if a != b)
            return step, f"agent {agent} at {p_states[step][agent]} in the pilot, {o_states[step][agent]} in ours"
        if abs(p_metric[step] - o_metric[step]) > TOLERANCE:
            return step, f"metric {p_metric[step]!r} in the pilot, {o_metric[step]!r} in ours"
    pilot_revolution, our_revolution = p_end == "revolution", o_end == "revolution"
    if world == "civil_violence_cascade" and pilot_revolution != our_revolution:
        return len(p_states) - 1, f"the pilot ended in {p_end}, ours in {o_end}"
    return None
