"""Message embeddings for the attribution: a sentence-embedding model only when one is installed.

Nothing is downloaded: the model is loaded from the local cache only (`local_files_only`), and
when sentence-transformers or the model is missing the analysis says it uses the hashed bag of
words (`models/swarm/embedding.py`, the same one the homogeneity metric uses).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import numpy as np

from mam_bench.models.swarm.embedding import embed

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 16


def message_embedder() -> tuple[Callable[[list[str]], np.ndarray], str]:
    """(texts -> (len, DIM) array, a description of what it is)."""
    if importlib.util.find_spec("sentence_transformers") is not None:
        try:
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(MODEL, local_files_only=True)
        except Exception as exc:  # noqa: BLE001 - no model in the cache: say so and fall back
            why = f"sentence-transformers is installed but {MODEL} is not in the local cache ({type(exc).__name__})"
        else:

            def encode(texts: list[str]) -> np.ndarray:
                full = np.asarray(model.encode(texts), dtype=float)
                return full[:, :DIM] if full.shape[1] >= DIM else np.pad(full, ((0, 0), (0, DIM - full.shape[1])))

            return encode, f"sentence embedding {MODEL} (first {DIM} dimensions)"
    else:
        why = "no sentence-embedding model is installed"
    return (
        lambda texts: np.stack([embed(t, DIM) for t in texts]) if texts else np.zeros((0, DIM)),
        f"hashed bag of words ({DIM} buckets): {why}",
    )
