"""The pre-parity greedy push solver, kept only so `bench/swarm_step.py` can time it against
the exact solver in `physics.py`.

It is NOT upstream's semantics: it lets a front pusher pay for idle agents behind it (a row
R, STAY, STAY, R, R moves all five, where upstream moves the front two) and it can drop a useful
pusher. No world uses it.
"""

from __future__ import annotations

import numpy as np

from mam_bench.models.swarm.grid import DELTA, MOVES, OPPOSITE
from mam_bench.models.swarm.physics import AGENT_MASS, FORCE, RESIST, Body, PhysicsResult, push_events


def resolve(
    static: np.ndarray,
    positions: np.ndarray,
    active: np.ndarray,
    actions: list[str | None],
    bodies: list[Body],
) -> PhysicsResult:
    """Apply every agent's move; `static` marks immovable cells (walls, prey, food, nest)."""
    H, W = static.shape
    pos = positions.copy()
    bodies = [Body(list(b.cells), b.mass, b.symbol) for b in bodies]
    n = len(pos)
    start = positions.copy()
    for d in MOVES:
        dr, dc = DELTA[d]
        opp = OPPOSITE[d]
        pushers = [i for i in range(n) if active[i] and actions[i] == d]
        if not pushers:
            continue
        occ: dict[tuple[int, int], int] = {}
        for i in range(n):
            if active[i]:
                occ[(int(pos[i, 0]), int(pos[i, 1]))] = i
        for b, body in enumerate(bodies):
            for cell in body.cells:
                occ[cell] = n + b

        def cells_of(node: int) -> list[tuple[int, int]]:
            if node < n:
                return [(int(pos[node, 0]), int(pos[node, 1]))]
            return bodies[node - n].cells

        children: dict[int, set[int]] = {}
        hits: dict[int, bool] = {}

        def expand(node: int) -> None:
            if node in children:
                return
            kids: set[int] = set()
            hit = False
            for r, c in cells_of(node):
                t = (r + dr, c + dc)
                if 0 <= t[0] < H and 0 <= t[1] < W and static[t]:
                    hit = True
                other = occ.get(t)
                if other is not None and other != node:
                    kids.add(other)
            children[node] = kids
            hits[node] = hit

        closure: dict[int, set[int]] = {}
        for p in pushers:
            seen = {p}
            stack = [p]
            while stack:
                u = stack.pop()
                expand(u)
                for v in children[u]:
                    if v not in seen:
                        seen.add(v)
                        stack.append(v)
            closure[p] = seen
        live = [p for p in pushers if not any(hits[u] for u in closure[p])]

        def mass(node: int) -> int:
            if node >= n:
                return bodies[node - n].mass
            return AGENT_MASS + (RESIST if actions[node] == opp else 0)

        while live:
            movers: set[int] = set().union(*(closure[p] for p in live))
            groups = _groups(movers, children)
            bad = None
            for g in groups:
                force = FORCE * sum(1 for p in live if p in g)
                if force < sum(mass(u) for u in g):
                    bad = g
                    break
            if bad is None:
                break
            drop = max((p for p in live if p in bad), key=lambda p: (len(closure[p]), -p))
            live.remove(drop)
        movers = set().union(*(closure[p] for p in live)) if live else set()
        for u in movers:
            if u < n:
                pos[u, 0] += dr
                pos[u, 1] += dc
            else:
                bodies[u - n] = bodies[u - n].shifted(dr, dc)
    # anything completely off the map is gone (agents are flagged escaped by the caller)
    kept = [b for b in bodies if any(0 <= r < H and 0 <= c < W for r, c in b.cells)]
    moved = pos - start
    return PhysicsResult(pos, kept, moved, push_events(start, pos, active, actions))


def _groups(movers: set[int], children: dict[int, set[int]]) -> list[set[int]]:
    """Weakly connected groups of the movers in the push graph, in a stable order."""
    adj: dict[int, set[int]] = {u: set() for u in movers}
    for u in movers:
        for v in children.get(u, ()):
            if v in movers:
                adj[u].add(v)
                adj[v].add(u)
    out, seen = [], set()
    for u in sorted(movers):
        if u in seen:
            continue
        comp, stack = {u}, [u]
        seen.add(u)
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    comp.add(y)
                    stack.append(y)
        out.append(comp)
    return out
