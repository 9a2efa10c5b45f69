"""Action attribution (paper section 4.4): which observation and message features predict an
agent's action. A random forest classifies each influence agent's action from features of its
start-of-round observation and of the messages it heard; permutation importance on held-out
decisions ranks the features and the two groups (observation, message). The held-out decisions
are whole games (30% of the distinct games) when there are 3 or more, so no test round has a
near-copy from its own game in training.

Features come from the per-round records: positions, task marks (P, F, N), the box, the alternate
state, the agent's previous action, and the messages sent last round by agents now within its view
(upstream's delivery rule), embedded as `embeddings.message_embedder` says.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mam_bench.models.swarm.analysis.embeddings import DIM
from mam_bench.models.swarm.analysis.games import Game, distinct

ACTIONS = ("UP", "DOWN", "LEFT", "RIGHT", "STAY", "SWITCH")
OBSERVATION = (
    "visible_agents",
    "agents_dr",
    "agents_dc",
    "nearest_agent",
    "target_visible",
    "target_dr",
    "target_dc",
    "box_visible",
    "box_dr",
    "box_dc",
    "alt_state",
    "row",
    "col",
    "round_share",
) + tuple(f"prev_{a.lower()}" for a in ACTIONS)
MESSAGE = ("messages_heard", "message_chars", "message_digits", "message_questions") + tuple(
    f"message_emb_{i}" for i in range(DIM)
)
MAX_SAMPLES = 20_000


@dataclass(frozen=True)
class Importance:
    name: str
    group: str
    mean: float
    std: float


@dataclass(frozen=True)
class Attribution:
    task: str
    samples: int
    accuracy: float
    majority: float  # the accuracy of always answering the commonest action
    held_out: str  # what the test set holds out: "games", or decisions when there are too few games
    features: tuple[Importance, ...]
    groups: tuple[Importance, ...]


def _nearest(at: tuple[int, int], cells: list[tuple[int, int]], reach: int) -> tuple[float, float, float]:
    seen = [(r - at[0], c - at[1]) for r, c in cells if max(abs(r - at[0]), abs(c - at[1])) <= reach]
    if not seen:
        return 0.0, 0.0, 0.0
    dr, dc = min(seen, key=lambda d: abs(d[0]) + abs(d[1]))
    return 1.0, float(dr), float(dc)


def decision_rows(game: Game, influence: set[int], embedder) -> tuple[list[list[float]], list[str]]:
    """One row per influence agent's on-map decision: (observation + message features, action)."""
    reach = int(game.params.get("view", 5)) // 2
    size = int(game.params.get("size", 10))
    rounds = game.rounds
    horizon = max(len(rounds) - 1, 1)
    rows, texts, labels = [], [], []
    prev_action: dict[int, str | None] = {}
    for k in range(1, len(rounds)):
        start, now = rounds[k - 1], rounds[k]
        pos = start["positions"]
        marks = [tuple(int(x) for x in key.split(",")) for key in (start.get("marks") or {})]
        box = [tuple(c) for c in start.get("box") or []]
        # record k-1 holds the messages sent in the round that led to it: heard now
        sent = [(j, m) for j, m in enumerate(start.get("messages") or []) if m and pos[j] is not None]
        for i, action in enumerate(now.get("actions") or []):
            if i not in influence or pos[i] is None or action is None:
                continue
            at = (pos[i][0], pos[i][1])
            others = [tuple(p) for j, p in enumerate(pos) if p is not None and j != i]
            near = [(r - at[0], c - at[1]) for r, c in others if max(abs(r - at[0]), abs(c - at[1])) <= reach]
            heard = [m for j, m in sent if max(abs(pos[j][0] - at[0]), abs(pos[j][1] - at[1])) <= reach]
            last = prev_action.get(i)
            obs = [
                len(near),
                float(np.mean([d[0] for d in near])) if near else 0.0,
                float(np.mean([d[1] for d in near])) if near else 0.0,
                float(min(abs(a) + abs(b) for a, b in near)) if near else 0.0,
                *_nearest(at, marks, reach),
                *_nearest(at, box, reach),
                float(bool((start.get("alt_state") or [False] * (i + 1))[i])),
                at[0] / size,
                at[1] / size,
                (k - 1) / horizon,
                *[float(last == a) for a in ACTIONS],
            ]
            text = " ".join(heard)
            msg = [len(heard), float(len(text)), float(sum(ch.isdigit() for ch in text)), float(text.count("?"))]
            rows.append(obs + msg)
            texts.append(text)
            labels.append(action)
        for i, action in enumerate(now.get("actions") or []):
            prev_action[i] = action
    if rows:
        emb = embedder(texts)
        emb[[not t for t in texts]] = 0.0
        rows = [r + list(map(float, e)) for r, e in zip(rows, emb)]
    return rows, labels


def _permuted_drop(model, X: np.ndarray, y: np.ndarray, cols: list[int], repeats: int, rng) -> tuple[float, float]:
    base = float((model.predict(X) == y).mean())
    drops = []
    for _ in range(repeats):
        Xp = X.copy()
        order = rng.permutation(len(X))
        Xp[:, cols] = X[order][:, cols]
        drops.append(base - float((model.predict(Xp) == y).mean()))
    return float(np.mean(drops)), float(np.std(drops))


def attribute(task: str, games: list[Game], embedder, seed: int = 0, repeats: int = 3) -> Attribution | None:
    """The forest and its importances for one task (None when fewer than 20 decisions or one action)."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.inspection import permutation_importance
    from sklearn.model_selection import GroupShuffleSplit, train_test_split

    X_rows, y_rows, g_rows = [], [], []
    for k, g in enumerate(distinct(games)):
        rows, labels = decision_rows(g, set(g.influence_ids), embedder)
        X_rows += rows
        y_rows += labels
        g_rows += [k] * len(rows)
    if len(y_rows) < 20 or len(set(y_rows)) < 2:
        return None
    X, y, groups = np.array(X_rows, dtype=float), np.array(y_rows), np.array(g_rows)
    rng = np.random.default_rng(seed)
    if len(y) > MAX_SAMPLES:
        keep = np.sort(rng.choice(len(y), MAX_SAMPLES, replace=False))
        X, y, groups = X[keep], y[keep], groups[keep]
    if len(set(groups.tolist())) >= 3:
        # held-out games, not held-out rounds: rounds of one game resemble each other, and a
        # forest tested on rounds of games it trained on would look better than it is
        train, test = next(GroupShuffleSplit(n_splits=1, test_size=0.3, random_state=seed).split(X, y, groups))
        X_tr, X_te, y_tr, y_te = X[train], X[test], y[train], y[test]
        by = "games"
    else:
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=seed)
        by = "decisions (fewer than 3 distinct games)"
    if len(set(y_tr.tolist())) < 2:
        return None
    model = RandomForestClassifier(n_estimators=60, random_state=seed, n_jobs=1, min_samples_leaf=2)
    model.fit(X_tr, y_tr)
    names = OBSERVATION + MESSAGE
    perm = permutation_importance(model, X_te, y_te, n_repeats=repeats, random_state=seed, n_jobs=1)
    feats = sorted(
        (
            Importance(n, "observation" if j < len(OBSERVATION) else "message", float(m), float(s))
            for j, (n, m, s) in enumerate(zip(names, perm.importances_mean, perm.importances_std))
        ),
        key=lambda f: -f.mean,
    )
    groups = []
    for group, cols in (("observation", range(len(OBSERVATION))), ("message", range(len(OBSERVATION), len(names)))):
        m, s = _permuted_drop(model, X_te, y_te, list(cols), repeats, rng)
        groups.append(Importance(group, group, m, s))
    _, counts = np.unique(y_te, return_counts=True)
    return Attribution(
        task,
        len(y),
        float(model.score(X_te, y_te)),
        float(counts.max() / counts.sum()),
        by,
        tuple(feats),
        tuple(sorted(groups, key=lambda g: -g.mean)),
    )
