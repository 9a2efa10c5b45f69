"""A local hashed bag-of-words embedding for message homogeneity: no model, no download."""

from __future__ import annotations

import re
import zlib
from functools import lru_cache

import numpy as np

DIM = 256
_WORD = re.compile(r"[a-z0-9]+")


def embed(text: str, dim: int = DIM) -> np.ndarray:
    """L2-normalised signed token counts hashed into `dim` buckets (zero vector if no tokens)."""
    v = np.zeros(dim)
    for tok in _WORD.findall(text.lower()):
        h = zlib.crc32(tok.encode())
        v[h % dim] += 1.0 if (h >> 16) & 1 else -1.0
    n = np.linalg.norm(v)
    return v / n if n else v


def homogeneity(messages: list[str]) -> tuple[float, float]:
    """(mean pairwise cosine of unique messages, norm of their mean embedding); 1 if < 2 unique."""
    return _homogeneity(tuple(sorted(set(messages))))


@lru_cache(maxsize=1 << 12)
def _homogeneity(unique: tuple[str, ...]) -> tuple[float, float]:
    """Memoised on the unique messages: swarms repeat the same few messages round after round."""
    if not unique:
        return 1.0, 0.0
    e = np.stack([_embedding(m) for m in unique])
    norm_mean = float(np.linalg.norm(e.mean(axis=0)))
    if len(unique) < 2:
        return 1.0, norm_mean
    sim = e @ e.T
    k = len(unique)
    return float((sim.sum() - np.trace(sim)) / (k * (k - 1))), norm_mean


@lru_cache(maxsize=1 << 12)
def _embedding(text: str) -> np.ndarray:
    """`embed` memoised per message (read-only: the cached array is shared)."""
    v = embed(text)
    v.setflags(write=False)
    return v


def edit_consistency(messages: list[str]) -> float:
    """1 - mean normalised Levenshtein distance over pairs of unique messages (1 if < 2)."""
    return _edit_consistency(tuple(sorted(set(messages))[:30]))


@lru_cache(maxsize=1 << 12)
def _edit_consistency(unique: tuple[str, ...]) -> float:
    """Memoised on the unique messages, like `_homogeneity`."""
    if len(unique) < 2:
        return 1.0
    total, pairs = 0.0, 0
    for i in range(len(unique)):
        for j in range(i + 1, len(unique)):
            a, b = unique[i], unique[j]
            total += _distance(a, b) / max(len(a), len(b), 1)
            pairs += 1
    return 1.0 - total / pairs


@lru_cache(maxsize=1 << 14)
def _distance(a: str, b: str) -> int:
    """`_levenshtein` memoised per pair: a new set of messages mostly pairs old ones."""
    return _levenshtein(a, b)


def _levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
