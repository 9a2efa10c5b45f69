"""Force-and-mass pushing on the grid (docs/worlds/swarm.md, "Physics"): upstream SwarmBench's integer program.

Each move applies force 2; an agent weighs 1, a rigid body its own mass (the Transport box 5).
Directions resolve in the fixed order UP, DOWN, LEFT, RIGHT. For one direction every agent and
body is a node with an edge to each node it would shove; cycles merge into one node (summed
mass and force), an agent pushing the opposite way weighs 1 + 2. Upstream (`swarmbench/
physics.py` @ c164678) then picks the largest set of moving nodes such that a moving node's
successors move, nothing static moves, and force flows only forward: a moving node needs its
own force plus what its predecessors pass on to reach its mass, and passes on at most the rest.
So a front pusher cannot pay for idle agents behind it.

We solve the same program: when no pusher steps into an agent or a body, each moves unless a
wall stops it (no program at all); components where every node shoves at most one other (chains,
pushers converging on one agent, a box pushed from behind) in closed form (the optimum is then
unique, see `_solve_tree`); the rest (a box shoving two things) with `scipy.optimize.milp`.
Where such a component has several maximal sets, the solver's tie may differ from upstream's
CBC. An agent that leaves the map is gone for the rest of the round's directions, as upstream
removes it at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from mam_bench.models.swarm.grid import DELTA, MOVES, OPPOSITE

FORCE = 2
AGENT_MASS = 1
RESIST = 2  # extra mass of an agent pushing against the direction being resolved


@dataclass
class Body:
    """A rigid aggregate (the Transport box, a pushable prey): its cells move together."""

    cells: list[tuple[int, int]]
    mass: int
    symbol: str = "B"

    def shifted(self, dr: int, dc: int) -> Body:
        return Body([(r + dr, c + dc) for r, c in self.cells], self.mass, self.symbol)


@dataclass
class PhysicsResult:
    positions: np.ndarray  # (N, 2) new positions (may lie off the map)
    bodies: list[Body]
    moved: np.ndarray  # (N, 2) displacement per agent
    push_events: int = 0
    log: list[str] = field(default_factory=list)


def resolve(
    static: np.ndarray,
    positions: np.ndarray,
    active: np.ndarray,
    actions: list[str | None],
    bodies: list[Body],
) -> PhysicsResult:
    """Apply every agent's move; `static` marks immovable cells (walls, food, nest, a static prey)."""
    H, W = static.shape
    # plain lists inside: a round touches each agent a few times, and numpy scalars are slow
    pos = positions.tolist()
    live = active.tolist()
    walls = static.tolist()
    bodies = [Body(list(b.cells), b.mass, b.symbol) for b in bodies]
    n = len(pos)
    for d in MOVES:
        pushers = [i for i in range(n) if live[i] and actions[i] == d]
        if not pushers:
            continue
        dr, dc = DELTA[d]
        movers = _free_run(dr, dc, walls, pos, live, bodies, pushers)
        if movers is None:
            movers = _movers(d, walls, pos, live, actions, bodies, pushers)
        for u in movers:
            if u < n:
                pos[u][0] += dr
                pos[u][1] += dc
            else:
                bodies[u - n] = bodies[u - n].shifted(dr, dc)
        for u in movers:  # an agent that left the map frees its cell at once
            if u < n and not (0 <= pos[u][0] < H and 0 <= pos[u][1] < W):
                live[u] = False
    kept = [b for b in bodies if any(0 <= r < H and 0 <= c < W for r, c in b.cells)]
    end = np.array(pos, dtype=positions.dtype).reshape(positions.shape)
    return PhysicsResult(end, kept, end - positions, push_events(positions, end, active, actions))


def _free_run(
    dr: int,
    dc: int,
    walls: list[list[bool]],
    pos: list[list[int]],
    live: list[bool],
    bodies: list[Body],
    pushers: list[int],
) -> list[int] | None:
    """The fast path: when no pusher steps into an agent or a body, no push is ambiguous.

    Each pusher is then a lone node of the push graph: it moves (force 2 >= mass 1) into a free
    cell or off the map, and stays before a wall or other static cell, which is exactly the
    program's answer. None when any pusher meets an agent or a body (then the program decides).
    """
    H, W = len(walls), len(walls[0])
    occupied = {(r, c) for (r, c), on in zip(pos, live) if on}
    for b in bodies:
        occupied.update(b.cells)
    movers = []
    for i in pushers:
        t = (pos[i][0] + dr, pos[i][1] + dc)
        if t in occupied:
            return None
        if not (0 <= t[0] < H and 0 <= t[1] < W and walls[t[0]][t[1]]):
            movers.append(i)
    return movers


def _movers(
    d: str,
    walls: list[list[bool]],
    pos: list[list[int]],
    live: list[bool],
    actions: list[str | None],
    bodies: list[Body],
    pushers: list[int],
) -> list[int]:
    """Node ids (agents 0..n-1, bodies n..) that move in direction `d`."""
    H, W = len(walls), len(walls[0])
    n = len(pos)
    dr, dc = DELTA[d]
    occ: dict[tuple[int, int], int] = {}
    for i, on in enumerate(live):
        if on:
            occ[(pos[i][0], pos[i][1])] = i
    for b, body in enumerate(bodies):
        for cell in body.cells:
            occ[cell] = n + b

    def cells_of(u: int) -> list[tuple[int, int]]:
        return [(pos[u][0], pos[u][1])] if u < n else bodies[u - n].cells

    # the part of the push graph the pushers reach (nothing else can move: it has no force)
    children: dict[int, list[int]] = {}
    blocked: set[int] = set()
    stack = list(pushers)
    while stack:
        u = stack.pop()
        if u in children:
            continue
        kids: list[int] = []
        for r, c in cells_of(u):
            t = (r + dr, c + dc)
            if 0 <= t[0] < H and 0 <= t[1] < W and walls[t[0]][t[1]]:
                blocked.add(u)
            v = occ.get(t)
            if v is not None and v != u and v not in kids:
                kids.append(v)
        children[u] = kids
        stack.extend(kids)
    single = _forest(n, d, actions, bodies, children, blocked)
    if single is not None:
        return single
    # the program only couples nodes of one weak component: the trees that do not touch a body of
    # several cells are solved as a forest, the rest as a program
    linked = _linked_to_bodies(n, bodies, children)
    if len(linked) < len(children):
        rest = _forest(n, d, actions, bodies, {u: k for u, k in children.items() if u not in linked}, blocked)
        if rest is not None:
            return rest + _program(n, d, actions, bodies, {u: children[u] for u in linked}, blocked)
    return _program(n, d, actions, bodies, children, blocked)


def _linked_to_bodies(n: int, bodies: list[Body], children: dict[int, list[int]]) -> set[int]:
    """The nodes weakly connected to a body of several cells (pushing it, pushed by it, or on a
    chain that does)."""
    near: dict[int, list[int]] = {u: list(k) for u, k in children.items()}
    for u, kids in children.items():
        for v in kids:
            near[v].append(u)
    seen = {u for u in children if u >= n and len(bodies[u - n].cells) > 1}
    stack = list(seen)
    while stack:
        for v in near[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def _program(
    n: int,
    d: str,
    actions: list[str | None],
    bodies: list[Body],
    children: dict[int, list[int]],
    blocked: set[int],
) -> list[int]:
    """The general path: strong components merged, the static closure, each weak component
    solved in closed form on a tree or by the integer program."""
    opp = OPPOSITE[d]
    nodes = sorted(children)
    index = {u: k for k, u in enumerate(nodes)}
    rows = [index[u] for u in nodes for _ in children[u]]
    cols = [index[v] for u in nodes for v in children[u]]
    m = len(nodes)
    if any(u >= n and len(bodies[u - n].cells) > 1 for u in nodes):
        graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(m, m)).tocsr()
        n_scc, scc = connected_components(graph, directed=True, connection="strong")
    else:  # single cells push along one line only: no cycles, every node is its own component
        n_scc, scc = m, np.arange(m)
    force = np.zeros(n_scc, dtype=np.int64)
    mass = np.zeros(n_scc, dtype=np.int64)
    stuck = np.zeros(n_scc, dtype=bool)
    members: list[list[int]] = [[] for _ in range(n_scc)]
    for u in nodes:
        s = int(scc[index[u]])
        members[s].append(u)
        if u < n:
            mass[s] += AGENT_MASS
            force[s] += FORCE if actions[u] == d else (-RESIST if actions[u] == opp else 0)
        else:
            mass[s] += bodies[u - n].mass
        stuck[s] |= u in blocked
    mass -= np.minimum(force, 0)  # upstream: a negative force becomes extra mass
    force = np.maximum(force, 0)
    succ: list[set[int]] = [set() for _ in range(n_scc)]
    for a, b in zip(rows, cols):
        if scc[a] != scc[b]:
            succ[int(scc[a])].add(int(scc[b]))
    # a node that reaches something static can never move (closure), nor can its ancestors
    order = _topological(succ)
    for s in reversed(order):
        if any(stuck[t] for t in succ[s]):
            stuck[s] = True
    keep = [s for s in range(n_scc) if not stuck[s]]
    moving: list[int] = []
    for comp in _weak_components(keep, succ):
        moving.extend(_solve_component(comp, succ, force, mass))
    return [u for s in moving for u in members[s]]


def _forest(
    n: int,
    d: str,
    actions: list[str | None],
    bodies: list[Body],
    children: dict[int, list[int]],
    blocked: set[int],
) -> list[int] | None:
    """The program's answer when no body of several cells is reached, without building it.

    Every node is then one cell and shoves at most the one node in front of it, so the push graph
    is a forest of in-trees with no cycles: the same answer as the general path, on plain lists.
    Trees are walked from their fronts (nodes that shove nothing); a node before a wall is no
    front and passes nothing on, so whatever shoves it, directly or not, is never reached and
    stays, as the general path's closure has it. Each tree is then solved as in `_solve_tree`.
    None when a body of several cells is among the nodes.
    """
    ahead: dict[int, int | None] = {}
    for u, kids in children.items():
        if u >= n and len(bodies[u - n].cells) > 1:
            return None
        ahead[u] = kids[0] if kids else None
    behind: dict[int, list[int]] = {}
    roots = []
    for u, v in ahead.items():
        if u in blocked:  # it meets something static: it and whatever shoves it stay
            continue
        if v is None:
            roots.append(u)
        else:
            behind.setdefault(v, []).append(u)
    opp = OPPOSITE[d]
    order = list(roots)  # each node before the ones that shove it
    for u in order:
        order.extend(behind.get(u, ()))
    leftover: dict[int, int | None] = {}
    for u in reversed(order):
        if u < n:
            a = actions[u]
            force, mass = (FORCE, AGENT_MASS) if a == d else ((0, AGENT_MASS + RESIST) if a == opp else (0, AGENT_MASS))
        else:
            force, mass = 0, bodies[u - n].mass
        net = force + sum(leftover[b] or 0 for b in behind.get(u, ()))
        leftover[u] = net - mass if net >= mass else None
    moving = [u for u in roots if leftover[u] is not None]
    for u in moving:
        moving.extend(b for b in behind.get(u, ()) if leftover[b] is not None)
    return moving


def _topological(succ: list[set[int]]) -> list[int]:
    indeg = [0] * len(succ)
    for s in succ:
        for t in s:
            indeg[t] += 1
    ready = [k for k, v in enumerate(indeg) if v == 0]
    out: list[int] = []
    while ready:
        u = ready.pop()
        out.append(u)
        for t in succ[u]:
            indeg[t] -= 1
            if indeg[t] == 0:
                ready.append(t)
    return out


def _weak_components(keep: list[int], succ: list[set[int]]) -> list[list[int]]:
    alive = set(keep)
    adj: dict[int, set[int]] = {u: set() for u in keep}
    for u in keep:
        for v in succ[u]:
            if v in alive:
                adj[u].add(v)
                adj[v].add(u)
    out, seen = [], set()
    for u in keep:
        if u in seen:
            continue
        comp, stack = [], [u]
        seen.add(u)
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    stack.append(y)
        out.append(sorted(comp))
    return out


def _solve_component(comp: list[int], succ: list[set[int]], force: np.ndarray, mass: np.ndarray) -> list[int]:
    """The largest moving set of one weakly connected component (closed form on a tree)."""
    inside = set(comp)
    edges = [(u, v) for u in comp for v in succ[u] if v in inside]
    outdeg = {u: 0 for u in comp}
    for u, _ in edges:
        outdeg[u] += 1
    if all(d <= 1 for d in outdeg.values()):
        return _solve_tree(comp, edges, force, mass)
    return _solve_milp(comp, edges, force, mass)


def _solve_tree(comp: list[int], edges: list[tuple[int, int]], force: np.ndarray, mass: np.ndarray) -> list[int]:
    """The program's answer when every node shoves at most one other: an in-tree.

    Only a body of several cells can shove two things, so this is every component without one
    (chains, pushers converging on one agent) and a box pushed from behind. Force then flows
    toward the root along one path. A node can move iff its own force plus the leftovers of the
    children that can move reaches its mass; including a child that can move never hurts (its
    leftover is >= 0), so every feasible moving set lies inside "the nodes that can move whose
    every node on the way to the root can move" and that set is feasible: the unique optimum,
    which is what the program returns.
    """
    children: dict[int, list[int]] = {u: [] for u in comp}
    has_parent = set()
    for u, v in edges:
        children[v].append(u)
        has_parent.add(u)
    root = next(u for u in comp if u not in has_parent)
    order, stack = [], [root]
    while stack:
        u = stack.pop()
        order.append(u)
        stack.extend(children[u])
    leftover: dict[int, int | None] = {}
    for u in reversed(order):  # children before parents
        net = int(force[u]) + sum(leftover[c] or 0 for c in children[u])
        leftover[u] = net - int(mass[u]) if net >= mass[u] else None
    moving, stack = [], ([root] if leftover[root] is not None else [])
    while stack:
        u = stack.pop()
        moving.append(u)
        stack.extend(c for c in children[u] if leftover[c] is not None)
    return sorted(moving)


def _solve_milp(comp: list[int], edges: list[tuple[int, int]], force: np.ndarray, mass: np.ndarray) -> list[int]:
    """Upstream's program: max sum x s.t. closure, and force + inflow - outflow >= mass * x.

    Variables: x per node (binary), f per edge (>= 0, <= big * x of both ends). For a moving node
    the balance is upstream's netForce >= mass with outflow <= leftover; a still node passes and
    receives nothing, so its balance is force >= 0, always true.
    """
    k, e = len(comp), len(edges)
    at = {u: i for i, u in enumerate(comp)}
    big = float(force[comp].sum() + 1)
    rows: list[np.ndarray] = []
    lo: list[float] = []
    hi: list[float] = []
    for u in comp:  # balance
        row = np.zeros(k + e)
        row[at[u]] = -float(mass[u])
        for j, (a, b) in enumerate(edges):
            if b == u:
                row[k + j] += 1.0
            if a == u:
                row[k + j] -= 1.0
        rows.append(row)
        lo.append(-float(force[u]))
        hi.append(np.inf)
    for j, (a, b) in enumerate(edges):
        row = np.zeros(k + e)  # closure: x_b >= x_a
        row[at[b]], row[at[a]] = 1.0, -1.0
        rows.append(row)
        lo.append(0.0)
        hi.append(np.inf)
        for end in (a, b):  # flow only between moving nodes
            row = np.zeros(k + e)
            row[k + j], row[at[end]] = 1.0, -big
            rows.append(row)
            lo.append(-np.inf)
            hi.append(0.0)
    c = np.concatenate([-np.ones(k), np.zeros(e)])
    integrality = np.concatenate([np.ones(k), np.zeros(e)])
    bounds = Bounds(np.zeros(k + e), np.concatenate([np.ones(k), np.full(e, big)]))
    res = milp(c, constraints=LinearConstraint(np.array(rows), lo, hi), integrality=integrality, bounds=bounds)
    if res.x is None:
        return []
    return [u for u in comp if res.x[at[u]] > 0.5]


def push_events(start: np.ndarray, end: np.ndarray, active: np.ndarray, actions: list[str | None]) -> int:
    """Pairs (A, B): A moved into B's old cell and B moved one cell the same way (docs/worlds/swarm.md)."""
    before, after, live = start.tolist(), end.tolist(), active.tolist()
    where = {(r, c): i for i, (r, c) in enumerate(before) if live[i]}
    count = 0
    for a, ((r0, c0), (r1, c1)) in enumerate(zip(before, after)):
        if not live[a] or abs(r1 - r0) + abs(c1 - c0) != 1:
            continue
        b = where.get((r1, c1))
        if b is not None and b != a and actions[b] != actions[a]:
            (br0, bc0), (br1, bc1) = before[b], after[b]
            if (br1 - br0, bc1 - bc0) == (r1 - r0, c1 - c0):
                count += 1
    return count
