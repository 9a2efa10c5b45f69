"""Local anonymous messages: at most 120 chars, heard next round within the sender's range.

Range is Chebyshev <= view // 2 around the sender's position when sending (the paper) or when
delivering (`message_range="deliver"`, upstream). Upstream also hands a sender its own message
back (`echo`), and cuts at 120 characters then appends "..." (123 in all); `rules=mam` cuts to
117 + "..." so a message never exceeds 120. Noise corrupts characters and delay holds a
message back 0..delay rounds; both draw from streams addressed by (sender, round).
With a `commander` (the centralized variant, paper App. L.3) range does not apply: the
commander's messages reach every agent, and every other agent's reach the commander only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mam_bench.streams import stream

MAX_CHARS = 120
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 "


def clip_message(text: str | None, upstream: bool = False) -> str | None:
    """Overflow is cut and '...' appended: after 120 chars (upstream) or after 117 (mam)."""
    if text is None:
        return None
    text = str(text).replace("\n", " ").strip()
    if not text:
        return None
    if len(text) <= MAX_CHARS:
        return text
    return text[:MAX_CHARS] + "..." if upstream else text[: MAX_CHARS - 3] + "..."


@dataclass(frozen=True)
class Pending:
    deliver: int
    sender: int
    origin: tuple[int, int]
    text: str


class MessageBus:
    def __init__(
        self,
        seed: int,
        reach: int,
        noise: float = 0.0,
        delay: int = 0,
        mode: str = "send",
        echo: bool = False,
        commander: int | None = None,
    ):
        self.seed, self.reach, self.noise, self.delay, self.mode = seed, reach, noise, delay, mode
        self.echo, self.commander = echo, commander
        self.pending: list[Pending] = []

    def send(self, round_: int, sender: int, origin: tuple[int, int], text: str) -> None:
        lag = 0
        if self.delay or self.noise:
            rng = stream(self.seed, "message", sender, round_)
            lag = int(rng.integers(self.delay + 1)) if self.delay else 0
            if self.noise and rng.random() < self.noise:
                chars = list(text)
                for i in range(len(chars)):
                    if rng.random() < 0.3:
                        chars[i] = _ALPHABET[int(rng.integers(len(_ALPHABET)))]
                text = "".join(chars)
        self.pending.append(Pending(round_ + 1 + lag, sender, origin, text))

    def deliver(self, round_: int, positions: np.ndarray, active: np.ndarray) -> dict[int, list[str]]:
        """Messages heard at the start of `round_`, per receiving agent (the sender only with `echo`)."""
        due = [m for m in self.pending if m.deliver <= round_]
        self.pending = [m for m in self.pending if m.deliver > round_]
        inbox: dict[int, list[str]] = {}
        if not due:
            return inbox
        idx = np.flatnonzero(active)
        if self.mode == "send":
            origins = np.array([m.origin for m in due], dtype=positions.dtype).reshape(len(due), 2)
        else:
            origins = positions[[m.sender for m in due]]
        at = positions[idx]
        # every (message, live agent) pair at once; nonzero walks them message by message, so
        # each inbox keeps the messages' order
        near = (
            np.maximum(abs(at[None, :, 0] - origins[:, None, 0]), abs(at[None, :, 1] - origins[:, None, 1]))
            <= self.reach
        )
        if self.commander is not None:
            senders = np.array([m.sender for m in due])
            near = np.where((senders == self.commander)[:, None], True, (idx == self.commander)[None, :])
        heard, by = np.nonzero(near)
        for k, i in zip(heard.tolist(), idx[by].tolist()):
            m = due[k]
            if i != m.sender or self.echo:
                inbox.setdefault(i, []).append(m.text)
        return inbox
