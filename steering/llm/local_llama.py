"""Our llama.cpp model object: grammar checked on the chosen token first, and a saved state per
conversation. Imported only with the `local` extra (llama_cpp).

Sample first. llama-cpp-python puts the grammar first in its sampler chain, so at every token the
grammar is applied to the whole vocabulary (262k candidates for gemma-3: 170-307 ms a token,
against 1-4 ms without). As llama.cpp's own `common_sampler_sample` does, we sample without the
grammar, check that one token against it, and only on a rejection apply the grammar to the whole
vocabulary and sample again. An answer is as legal either way (the grammar accepts every token
kept); at temperature 0 it is the same answer (the most likely token is the most likely legal one
whenever it is legal). A greedy decoder's rejection first tries the `TOP_CANDIDATES` most likely
tokens (the most likely legal token among them is the most likely legal token of all, unless it
ties with the ones left out), and the whole vocabulary only when none of them is legal: about one
sampled token in six is rejected (a space, a string past its bound, text after the closing brace).

Saved states. After each answer the context's state (its KV cache, without llama-cpp-python's
copy of the logits rows, which is up to 512 x 262k floats) is kept under the tokens it holds;
a call whose prompt continues one of them (a session agent's next turn, even after another
agent's call) restores it and prefills only the new tokens. The states are bounded in bytes,
least recently used first out.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import llama_cpp.llama_cpp as lib
import numpy as np
from llama_cpp import Llama, LlamaRAMCache
from llama_cpp.llama import LlamaState

#: bytes of saved states kept (gemma-3 270M: about 18 KB a token, so a 2,000-token turn is 36 MB)
STATE_BYTES = 768 * 2**20
_TOKEN_DATA = np.dtype([("id", np.intc), ("logit", np.single), ("p", np.single)], align=True)
#: the most likely tokens a greedy decoder checks against the grammar after a rejection, before
#: the whole vocabulary
TOP_CANDIDATES = 512


class SampleFirst:
    """A sampler with the interface llama-cpp-python calls (`sample(ctx, idx)`, `close()`): the
    free chain samples, the grammar checks the token, the whole vocabulary only on a rejection."""

    def __init__(self, owner: LocalLlama, free: Any, grammar: Any, greedy: bool = False):
        self.owner, self.free, self.greedy = owner, free, greedy
        self.grammar = lib.llama_sampler_init_grammar(
            owner._model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        self.n_vocab = owner.n_vocab()
        self._one = (lib.llama_token_data * 1)()

    def sample(self, ctx: Any, idx: int = -1) -> int:
        token = self.free.sample(ctx, idx)
        self.owner.sampled += 1
        self._one[0] = lib.llama_token_data(token, 1.0, 0.0)
        one = lib.llama_token_data_array(self._one, 1, -1, False)
        lib.llama_sampler_apply(self.grammar, ctypes.byref(one))
        if math.isfinite(self._one[0].logit):
            lib.llama_sampler_accept(self.grammar, token)
            return token
        self.owner.rejected += 1
        logits = np.ctypeslib.as_array(lib.llama_get_logits_ith(ctx.ctx, idx), shape=(self.n_vocab,))
        if self.greedy and self.owner.top_candidates and (token := self._best_of_top(logits)) is not None:
            lib.llama_sampler_accept(self.grammar, token)
            return token
        self.owner.widened += 1
        cands, full = self._checked(np.arange(self.n_vocab, dtype=np.intc), logits)  # cands holds what full points into
        lib.llama_sampler_apply(self.free.sampler, ctypes.byref(full))
        token = int(full.data[full.selected].id)
        lib.llama_sampler_accept(self.grammar, token)
        return token

    def _checked(self, ids: np.ndarray, logits: np.ndarray) -> tuple[np.ndarray, Any]:
        """Candidates `ids` with their logits, the grammar applied (an illegal one's logit is -inf):
        the array and llama.cpp's view of it, which the caller's sampler may apply on."""
        cands = np.empty(len(ids), dtype=_TOKEN_DATA)
        cands["id"], cands["logit"], cands["p"] = ids, logits, 0.0
        data = cands.ctypes.data_as(ctypes.POINTER(lib.llama_token_data))
        view = lib.llama_token_data_array(data, len(ids), -1, False)
        lib.llama_sampler_apply(self.grammar, ctypes.byref(view))
        return cands, view

    def _best_of_top(self, logits: np.ndarray) -> int | None:
        """The legal token a greedy decoder picks (the highest logit, the lowest id among equals),
        found among the most likely tokens; None when none of them is legal, or when the best legal
        one ties with a token left out (then only the whole vocabulary decides)."""
        k = min(self.owner.top_candidates, self.n_vocab)
        top = np.argpartition(logits, -k)[-k:]
        cands, _ = self._checked(top, logits[top])
        legal = np.isfinite(cands["logit"])
        if not legal.any():
            return None
        best = cands["logit"][legal].max()
        if k < self.n_vocab and best <= logits[top].min():  # a token outside the top may tie with it
            return None
        return int(cands["id"][legal & (cands["logit"] == best)].min())

    def close(self) -> None:
        if self.grammar is not None:
            lib.llama_sampler_free(self.grammar)
            self.grammar = None
        self.free.close()

    def __del__(self) -> None:
        self.close()


class LocalLlama(Llama):
    """Llama with the sample-first grammar (`sample_first`), light saved states, and counts of
    what each call cost: `prefilled` prompt tokens evaluated, tokens `sampled`, `rejected`, and
    `widened` (rejections that applied the grammar to the whole vocabulary)."""

    def __init__(self, *args: Any, sample_first: bool = True, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sample_first = sample_first
        self.prefilled: int | None = None
        self.sampled = 0
        self.rejected = 0
        self.widened = 0
        #: tokens a greedy rejection checks before the whole vocabulary (0: the whole at once)
        self.top_candidates = TOP_CANDIDATES
        self.set_cache(LlamaRAMCache(capacity_bytes=STATE_BYTES))

    def _init_sampler(self, *args: Any, grammar: Any = None, **kwargs: Any) -> Any:
        if grammar is None or not self.sample_first:
            return super()._init_sampler(*args, grammar=grammar, **kwargs)
        greedy = kwargs.get("temp") == 0.0 and _neutral_penalties(kwargs) and not kwargs.get("logits_processor")
        return SampleFirst(self, super()._init_sampler(*args, grammar=None, **kwargs), grammar, greedy)

    def eval(self, tokens: Any) -> None:
        if self.prefilled is None:  # the first evaluation of a call is its prompt's remainder
            self.prefilled = len(tokens)
        super().eval(tokens)

    def begin_call(self) -> None:
        self.prefilled = None

    def save_state(self) -> LlamaState:
        """The context's state and the tokens it holds, without the logits rows (sampling reads
        the context's own logits, and a restored state evaluates its last token again)."""
        size = lib.llama_state_get_size(self._ctx.ctx)
        buf = (ctypes.c_uint8 * int(size))()
        n = int(lib.llama_state_get_data(self._ctx.ctx, buf, size))
        return LlamaState(
            input_ids=self.input_ids[: self.n_tokens].copy(),
            scores=np.empty((0, 0), dtype=np.single),
            n_tokens=self.n_tokens,
            llama_state=bytes(buf)[:n],
            llama_state_size=n,
            seed=self._seed,
        )

    def load_state(self, state: LlamaState) -> None:
        data = (ctypes.c_uint8 * state.llama_state_size).from_buffer_copy(state.llama_state)
        if lib.llama_state_set_data(self._ctx.ctx, data, state.llama_state_size) != state.llama_state_size:
            raise RuntimeError("failed to restore a saved llama state")
        self.input_ids[: state.n_tokens] = state.input_ids
        self.n_tokens = state.n_tokens
        self._requires_eval = True
        self._seed = state.seed


def _neutral_penalties(kwargs: dict[str, Any]) -> bool:
    """The penalties sampler leaves the logits as they are (greedy then picks the raw argmax)."""
    return (
        kwargs.get("repeat_penalty", 1.0) == 1.0
        and kwargs.get("frequency_penalty", 0.0) == 0.0
        and kwargs.get("presence_penalty", 0.0) == 0.0
    )
