"""The pilot's two ordinary worlds (JoeHelbing/mam-bench v0.2.x) written again from its code and its
`rules-and-scoring.md` page, in plain Python and numpy, importing nothing of ours: what
`mam-bench parity pilot` and the parity tests hold our worlds to. Each function plays the
ordinary (reference) world of one case and returns its trajectory, one state per completed step,
and how it ended.

Read from the pilot: `scheduling.py` (the BLAKE2b-addressed generators and the two-cohort order),
`simulations/schelling/{settings,board,agents,simulation}.py` and
`simulations/civil_violence/simulation.py` (set-up, phases, release, settlement, stopping)."""

from __future__ import annotations

import hashlib
from math import exp

import numpy as np


def slot(seed: int, step: int, phase: str, agent: int, purpose: str) -> np.random.Generator:
    """One addressed generator: BLAKE2b-128 over the length-prefixed big-endian parts."""
    digest = hashlib.blake2b(digest_size=16)
    for part in (seed, step, phase, agent, purpose):
        raw = part.encode() if isinstance(part, str) else part.to_bytes(max(1, (part.bit_length() + 7) // 8), "big")
        digest.update(len(raw).to_bytes(8, "big") + raw)
    return np.random.default_rng(int.from_bytes(digest.digest(), "big"))


def claim_order(seed: int, step: int, phase: str, ids: list[int], selected: list[int]) -> list[int]:
    """The replaced ids first, then everybody else, each cohort sorted and then shuffled by its slot."""
    order = []
    first, rest = sorted(i for i in ids if i in selected), sorted(i for i in ids if i not in selected)
    for purpose, cohort in (("_order_selected", first), ("_order_ordinary", rest)):
        slot(seed, step, phase, 0, purpose).shuffle(cohort)
        order += cohort
    return order


def torus_ring(cell: int, size: int, radius: int) -> set[int]:
    r, c = divmod(cell, size)
    reach = range(-radius, radius + 1)
    return {((r + dr) % size) * size + (c + dc) % size for dr in reach for dc in reach} - {cell}


# --- Schelling, rule v2 --------------------------------------------------------------------------------
def schelling_case(size: int, tolerance: float, vacancy: float, controlled: int) -> tuple[int, list[int]]:
    """The population (round half to even of the vacancies) and the replaced ids: the lowest
    `controlled // 2` of each half."""
    agents = size * size - round(size * size * vacancy)
    half, k = agents // 2, controlled // 2
    return agents, [*range(k), *range(half, half + k)]


def schelling_homophily(cells: dict[int, int], size: int, scored: set[int], kind: list[int]) -> float:
    """Same-type share of the undirected neighbour edges between scored agents (cells: place -> id)."""
    same = total = 0
    for place, aid in cells.items():
        if aid not in scored:
            continue
        for other in torus_ring(place, size, 1):
            bid = cells.get(other)
            if bid is not None and bid in scored and other > place:
                total += 1
                same += kind[aid] == kind[bid]
    return same / total


def schelling_reference(size: int, tolerance: float, vacancy: float, seed: int, max_steps: int, vision: int,
                        controlled: int) -> tuple[list[list[int]], list[float], str]:  # fmt: skip
    """Positions (flat cells, by id) and masked homophily after each completed step, and the end."""
    n, selected = schelling_case(size, tolerance, vacancy, controlled)
    kind = [1] * (n // 2) + [2] * (n // 2)
    where = [int(c) for c in np.random.default_rng(seed).permutation(size * size)[:n]]
    scored = set(range(n)) - set(selected)

    def share(cells: dict[int, int], around: set[int], k: int) -> tuple[int, int]:
        occupied = [kind[cells[p]] for p in around if p in cells]
        return sum(o == k for o in occupied), len(occupied)

    def satisfied(cells: dict[int, int], aid: int) -> bool:
        same, total = share(cells, torus_ring(where[aid], size, 1), kind[aid])
        return total == 0 or same / total >= tolerance

    trail, homophily = [list(where)], [schelling_homophily(dict(zip(where, range(n))), size, scored, kind)]
    for step in range(max_steps):
        cells = {p: i for i, p in enumerate(where)}
        empty = set(range(size * size)) - set(cells)
        moves: dict[int, int] = {}
        for aid in claim_order(seed, step, "schelling", list(range(n)), selected):
            if satisfied(cells, aid):
                continue
            origin, visible = where[aid], torus_ring(where[aid], size, vision)
            now_same, now_total = share(cells, torus_ring(origin, size, 1), kind[aid])
            better = []
            for place in sorted((empty - set(moves.values())) & visible):
                same, total = share(cells, torus_ring(place, size, 1) & visible, kind[aid])
                same, total = (1, 1) if total == 0 else (same, total)
                if same * now_total > now_same * total:
                    better.append(place)
            for radius in range(1, vision + 1):
                nearest = [p for p in better if p in torus_ring(origin, size, radius)]
                if nearest:
                    tie = slot(seed, step, "schelling", aid, "movement")
                    moves[aid] = int(nearest[0] if len(nearest) == 1 else tie.choice(nearest))
                    break
        if not moves:
            return trail, homophily, "equilibrium" if all(satisfied(cells, i) for i in range(n)) else "blocked"
        for aid, place in moves.items():
            where[aid] = place
        trail.append(list(where))
        homophily.append(schelling_homophily(dict(zip(where, range(n))), size, scored, kind))
    return trail, homophily, "horizon"


# --- Civil Violence (binary cascade) ------------------------------------------------------------------
def cascade_reference(size: int, citizen_density: float, police_density: float, vision: int, threshold: float,
                      mean: float, std: float, max_jail: int, seed: int, max_steps: int, role: str,
                      controlled: int = 16) -> tuple[list[list], list[float], str]:  # fmt: skip
    """Each agent's cell (None in jail) and the participation of the scored citizens after each
    completed step, and the end ("revolution" or "horizon")."""
    citizens, police = round(size * size * citizen_density), round(size * size * police_density)
    rng = np.random.default_rng(seed)
    cells = rng.permutation(size * size)
    pref = [float(rng.normal(mean, std)) for _ in range(citizens)]
    loc: list[tuple[int, int] | None] = [divmod(int(cells[i]), size) for i in range(citizens + police)]
    pool = tuple(range(citizens)) if role == "citizen" else tuple(range(citizens, citizens + police))
    selected = sorted(int(i) for i in rng.choice(pool, controlled, replace=False))
    scored = [i for i in range(citizens) if i not in selected]
    active, jail = [False] * citizens, [0] * citizens

    def around(at: tuple[int, int], radius: int) -> set[tuple[int, int]]:
        return {divmod(p, size) for p in torus_ring(at[0] * size + at[1], size, radius)}

    def adjacent_sorted(at: tuple[int, int]) -> list[tuple[int, int]]:
        return sorted(around(at, 1))

    def participation() -> float:
        return sum(active[i] or loc[i] is None for i in scored) / len(scored)

    def free_cells() -> set[tuple[int, int]]:
        taken = {c for c in loc if c is not None}
        return {(r, c) for r in range(size) for c in range(size)} - taken

    trail, shares = [list(loc)], [participation()]
    for step in range(max_steps):
        # citizen phase: release first, on the phase-start vacancies
        empty = free_cells()
        for i in range(citizens):
            if loc[i] is not None:
                continue
            if jail[i] > 0:
                jail[i] -= 1
            elif empty:
                choices = sorted(empty)
                loc[i] = choices[int(slot(seed, step, "citizen", i, "release").integers(len(choices)))]
                active[i] = False
                empty.discard(loc[i])
        start = list(loc)
        moves: dict[int, tuple[int, int]] = {}
        stance: dict[int, bool] = {}
        for i in claim_order(seed, step, "citizen", list(range(citizens)), selected):
            if start[i] is None:
                continue
            seen = around(start[i], vision)
            a = 1 + sum(active[j] and start[j] in seen for j in range(citizens))
            q = 1 + sum(not active[j] and start[j] in seen for j in range(citizens))
            c = sum(start[j] in seen for j in range(citizens, citizens + police))
            x = -pref[i] + a * a / q - threshold
            sig = 1 / (1 + exp(-x)) if x >= 0 else exp(x) / (1 + exp(x))
            stance[i] = bool(sig - (1 - exp(-2.3 * c / a)) > slot(seed, step, "citizen", i, "activation").random())
            legal = [p for p in adjacent_sorted(start[i]) if p in empty and p not in moves.values()]
            if legal:
                moves[i] = legal[int(slot(seed, step, "citizen", i, "movement").integers(len(legal)))]
        for i, s in stance.items():
            active[i] = s
        for i, p in moves.items():
            loc[i] = p
        # police phase, on the settled citizens
        empty, start, moves, arrests = free_cells(), list(loc), {}, {}
        for i in claim_order(seed, step, "police", list(range(citizens, citizens + police)), selected):
            legal = [p for p in adjacent_sorted(start[i]) if p in empty and p not in moves.values()]
            if legal:
                moves[i] = legal[int(slot(seed, step, "police", i, "movement").integers(len(legal)))]
            reach = around(moves.get(i, start[i]), 1)
            targets = [j for j in range(citizens) if active[j] and start[j] in reach and j not in arrests.values()]
            if targets:
                arrests[i] = targets[int(slot(seed, step, "police", i, "target").integers(len(targets)))]
        for t in arrests.values():
            loc[t] = None
            jail[t] = int(slot(seed, step, "police", t, "jail").integers(max_jail + 1))
        for i, p in moves.items():
            loc[i] = p
        trail.append(list(loc))
        shares.append(participation())
        if sum(active[i] or loc[i] is None for i in scored) * 100 >= len(scored) * 95:
            return trail, shares, "revolution"
    return trail, shares, "horizon"
