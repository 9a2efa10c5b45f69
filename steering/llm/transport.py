"""Transport retries: exponential backoff with full jitter on 408, 429, 5xx, timeouts and dropped
connections, honouring Retry-After, bounded in count and in total time.

Everything else (a 400, a bad key, a 500 that names `response_format`, which is how llama.cpp's
server refuses a json_schema) is deterministic and fails at once: retrying cannot help. A run
whose endpoint answers nothing for `stall` seconds stops (a hung server must not hold it for hours).
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mam_bench.errors import BackendFailed

#: the only 4xx worth retrying; every 5xx is, unless it names the request's response_format
TRANSIENT_STATUS = {408, 429}


class TransportError(Exception):
    """A call that failed for good (retries exhausted or a non-transient error)."""

    def __init__(self, message: str, attempts: int, format_refused: bool = False):
        super().__init__(message)
        self.attempts = attempts
        #: the endpoint refused the structured-output request (the caller may fall back)
        self.format_refused = format_refused


class Liveness:
    """The stall clock, shared by every call of a run: seconds with a call under way since the
    last answer. It pauses while no call is under way (time spent stepping the world never
    counts) and is not reset by a call failing: only an answer resets it."""

    def __init__(self) -> None:
        self.last: float | None = None  # time.monotonic() of the last answer, shifted by the pauses
        self.inflight = 0
        self._idle_since: float | None = None
        #: whether any call of the run was ever answered (a refused connection before that is fatal)
        self.ever = False

    def begin(self) -> None:
        now = time.monotonic()
        if self.last is None:
            self.last = now
        elif self.inflight == 0 and self._idle_since is not None:
            self.last += now - self._idle_since
        self.inflight += 1

    def end(self) -> None:
        self.inflight -= 1
        if self.inflight == 0:
            self._idle_since = time.monotonic()

    def answered(self) -> None:
        self.last = time.monotonic()
        self.ever = True


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 6
    budget: float = 300.0
    base: float = 0.5
    cap: float = 30.0
    timeout: float = 60.0
    #: time.monotonic() by which the whole run must be over (None: no overall deadline)
    deadline: float | None = None
    #: seconds without any answered call (counted from the run's first request) before the run stops
    stall: float | None = None
    liveness: Liveness | None = None


#: a rejected key: retrying cannot help, and every other call would be rejected too
AUTH_STATUS = {401, 403}


def status_of(exc: BaseException) -> int | None:
    for obj in (exc, getattr(exc, "response", None)):
        code = getattr(obj, "status_code", None)
        if isinstance(code, int):
            return code
    return None


def format_refused(exc: BaseException) -> bool:
    """A 4xx/5xx whose message names the structured-output request: the endpoint cannot do it."""
    status = status_of(exc)
    if status is None or status < 400 or status in (401, 403, 408, 429):
        return False
    text = f"{exc} {getattr(exc, 'body', '')}".lower()
    return "response_format" in text or "json_schema" in text


def is_transient(exc: BaseException) -> bool:
    """408/429/5xx, timeouts, connection trouble, undecodable bodies."""
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError, ConnectionError)):
        return True
    status = status_of(exc)
    if status is not None and status >= 400:  # (a 200 with an undecodable body is judged below)
        if format_refused(exc):
            return False
        return status in TRANSIENT_STATUS or status >= 500
    names = {c.__name__ for c in type(exc).__mro__}
    transient_names = {
        "APITimeoutError",
        "APIConnectionError",
        "TimeoutException",
        "TransportError",
        "NetworkError",
        "RemoteProtocolError",
        "ConnectError",
        "ReadError",
        "JSONDecodeError",
        "APIResponseValidationError",
    }
    return bool(names & transient_names)


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms, Retry-After seconds or HTTP date)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except Exception:  # noqa: BLE001 - a strange header must not break the retry loop
        return None


def backoff(attempt: int, policy: RetryPolicy, rng: random.Random) -> float:
    """Full jitter: uniform in [0, min(cap, base * 2**attempt)]."""
    return rng.uniform(0.0, min(policy.cap, policy.base * (2**attempt)))


async def call_with_retries(
    call: Callable[[], Awaitable[Any]],
    policy: RetryPolicy,
    rng: random.Random | None = None,
) -> tuple[Any, int]:
    """Run `call` until it succeeds; returns (result, retries). Raises TransportError."""
    rng = rng or random.Random()
    started = time.monotonic()
    live = policy.liveness
    if live is not None:
        live.begin()
    try:
        return await _attempts(call, policy, rng, started)
    finally:
        if live is not None:
            live.end()


async def _attempts(
    call: Callable[[], Awaitable[Any]], policy: RetryPolicy, rng: random.Random, started: float
) -> tuple[Any, int]:
    live = policy.liveness
    attempt = 0
    while True:
        timeout = policy.timeout
        if policy.deadline is not None:
            left = policy.deadline - time.monotonic()
            if left <= 0:
                raise BackendFailed("the run's --deadline passed")
            timeout = min(timeout, left)
        _check_stall(policy)
        if policy.stall is not None and live is not None and live.last is not None:
            timeout = min(timeout, max(0.001, policy.stall - (time.monotonic() - live.last)))
        try:
            result = await asyncio.wait_for(call(), timeout=timeout)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified below
            if policy.deadline is not None and time.monotonic() >= policy.deadline:
                raise BackendFailed("the run's --deadline passed") from None
            _check_stall(policy)
            if status_of(exc) in AUTH_STATUS:
                raise BackendFailed(
                    f"the provider refused the key (HTTP {status_of(exc)}); check --api-key-env and --base-url"
                ) from None
            if connection_refused(exc) and attempt + 1 >= REFUSED_ATTEMPTS and not (live and live.ever):
                raise BackendFailed(
                    f"nothing answers at the endpoint: the connection was refused {attempt + 1} times "
                    f"({_short(exc)}); check --base-url and that the server runs"
                ) from None
            if not is_transient(exc):
                raise TransportError(
                    f"{type(exc).__name__}: {_short(exc)}", attempt + 1, format_refused=format_refused(exc)
                ) from exc
            if attempt >= policy.max_retries:
                raise TransportError(
                    f"gave up after {attempt + 1} attempts: {type(exc).__name__}: {_short(exc)}", attempt + 1
                ) from exc
            wait = backoff(attempt, policy, rng)
            asked = retry_after(exc)
            if asked is not None:  # honoured as asked; the budget and the deadline bound it
                wait = max(wait, asked)
            if policy.deadline is not None and time.monotonic() + wait >= policy.deadline:
                raise BackendFailed(f"the server asked to wait {wait:.0f}s, past the run's --deadline") from None
            left = policy.budget - (time.monotonic() - started)
            if wait >= left:
                raise TransportError(
                    f"retry budget of {policy.budget:.0f}s spent: {type(exc).__name__}", attempt + 1
                ) from exc
            await asyncio.sleep(wait)
            attempt += 1
        else:
            if live is not None:
                live.answered()
            return result, attempt


#: attempts refused at connect, before any call was answered, after which the run stops
REFUSED_ATTEMPTS = 3


def connection_refused(exc: BaseException) -> bool:
    """Nothing listens at the endpoint: the connection was refused (anywhere in the causes)."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, ConnectionRefusedError) or "connection refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _check_stall(policy: RetryPolicy) -> None:
    live = policy.liveness
    if policy.stall is None or live is None or live.last is None:
        return
    silent = time.monotonic() - live.last
    if silent >= policy.stall:
        raise BackendFailed(
            f"no call answered for {silent:.0f}s (--stall-timeout {policy.stall:g}s): "
            "the endpoint accepts requests but does not answer them, or fails every one"
        )


def _short(exc: BaseException, limit: int = 200) -> str:
    text = str(exc).replace("\n", " ")
    return text[:limit]
