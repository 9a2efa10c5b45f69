"""One loaded local model per process: every LocalChatModel of the same GGUF path, context size
and threads shares one llama.cpp model and one lock (a benchmark's pairs in a worker process
load it once, not once a pair). The llama.cpp class is replaced by a counter of loads."""

from __future__ import annotations

from typing import Any

import pytest

from mam_bench.steering.llm import local_llama, local_model
from mam_bench.steering.llm.local_model import LocalChatModel


class CountedLoads:
    loads: list[dict[str, Any]] = []

    def __init__(self, **kwargs: Any) -> None:
        CountedLoads.loads.append(kwargs)


@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> list[dict[str, Any]]:
    monkeypatch.setattr(local_llama, "LocalLlama", CountedLoads)
    monkeypatch.setattr(local_model, "_LOADED", {})
    monkeypatch.setenv("MAM_BENCH_GGUF", str(tmp_path / "model.gguf"))
    CountedLoads.loads = []
    return CountedLoads.loads


def test_models_of_the_same_settings_share_one_load_and_one_lock(counted: list[dict[str, Any]]) -> None:
    a, b = LocalChatModel(n_threads=2), LocalChatModel(n_threads=2, temperature=1.0, max_tokens=12)
    assert a._load() is b._load() and a._lock is b._lock
    assert len(counted) == 1 and local_model.loaded_models() == 1
    other = LocalChatModel(n_threads=2, n_ctx=4096)
    assert other._load() is not a._load() and other._lock is not a._lock
    assert len(counted) == 2 and counted[1]["n_ctx"] == 4096
    assert LocalChatModel(n_threads=2, sample_first=False)._load() is not a._load()  # a decoder of its own
