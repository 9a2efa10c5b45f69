"""What the social-media world measures, over ordinary users only (influence accounts masked)."""

from __future__ import annotations

import numpy as np


def variance(opinion: np.ndarray) -> float:
    """Opinion variance: near 0 at consensus, up to 1 with two camps at -1 and +1."""
    return float(np.var(opinion)) if len(opinion) else 0.0


def bimodality(opinion: np.ndarray) -> float:
    """Sarle's bimodality coefficient (skew^2 + 1) / kurtosis; above 5/9 hints at two modes.
    0 where the opinions have no spread (consensus)."""
    if len(opinion) < 4:
        return 0.0
    centred = opinion - opinion.mean()
    m2 = float(np.mean(centred**2))
    if m2 < 1e-12:
        return 0.0
    skew = float(np.mean(centred**3)) / m2**1.5
    kurt = float(np.mean(centred**4)) / m2**2
    return (skew**2 + 1.0) / kurt


def assortativity(opinion: np.ndarray, follows: np.ndarray, scored: np.ndarray) -> float:
    """Pearson correlation of opinions across follow links whose two ends are both scored:
    near 1 when users follow only like-minded accounts (echo chambers), near 0 on a random network."""
    src = np.repeat(np.arange(len(follows)), follows.shape[1])
    dst = follows.ravel()
    keep = scored[src] & scored[dst]
    a, b = opinion[src[keep]], opinion[dst[keep]]
    if len(a) < 2 or a.std() < 1e-12 or b.std() < 1e-12:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def clusters(opinion: np.ndarray, eps: float) -> int:
    """Opinion clusters: groups of sorted opinions separated by gaps of at least eps."""
    if len(opinion) == 0:
        return 0
    return 1 + int(np.sum(np.diff(np.sort(opinion)) >= eps))
