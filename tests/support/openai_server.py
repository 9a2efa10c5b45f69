"""A loopback OpenAI-compatible chat-completions server for tests: no network, full control.

Replies are scripted by a function of the request body (so a retried request gets the same
answer, whatever the order of concurrent calls). Faults are injected per request: 429 with
Retry-After, 500, a timeout (the answer comes too late), a malformed or a truncated body.
`answered` counts the requests that got a full 200 answer (what a provider would bill);
`received` counts every request. A gate can hold requests after N answers (kill tests).

Modes that mimic real servers: `reject_json_schema` answers a json_schema response_format with
llama.cpp's (llama_cpp.server's) own 500; `reject_json_object` refuses a json_object with a 400
naming it; `echo_key` puts the key it received into every field of its answer it can (id, model,
system_fingerprint, service_tier, content, headers); `hang` accepts every request and never
answers it.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[dict[str, Any]], str]

#: what llama_cpp.server answers to `response_format: {"type": "json_schema", ...}` (HTTP 500)
LLAMA_CPP_REFUSAL = {
    "error": {
        "message": (
            "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
            "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
            "'ctx': {'expected': \"'text' or 'json_object'\"}}]"
        ),
        "type": "internal_server_error",
        "param": None,
        "code": None,
    }
}
Fault = Callable[[dict[str, Any], int], str | None]


def last_user_text(body: dict[str, Any]) -> str:
    msgs = body.get("messages") or []
    for m in reversed(msgs):
        if m.get("role") == "user":
            c = m.get("content")
            return c if isinstance(c, str) else json.dumps(c)
    return ""


def all_text(body: dict[str, Any]) -> str:
    return "\n".join(m.get("content") if isinstance(m.get("content"), str) else "" for m in body.get("messages") or [])


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True


class OpenAIServer:
    """Start with `with OpenAIServer(reply=...) as srv:`; `srv.base_url` ends in /v1."""

    def __init__(
        self,
        reply: Reply | None = None,
        latency: float = 0.0,
        fault: Fault | None = None,
        retry_after: str = "0.05",
        timeout_sleep: float = 2.0,
        hold_after: int | None = None,
        reject_json_schema: bool = False,
        reject_json_object: bool = False,
        echo_key: bool = False,
        hang: bool = False,
    ):
        self.reply = reply or (lambda body: '{"stay": true}')
        self.latency = latency
        self.fault = fault
        self.retry_after = retry_after
        self.timeout_sleep = timeout_sleep
        self.hold_after = hold_after
        self.reject_json_schema = reject_json_schema
        self.reject_json_object = reject_json_object
        self.echo_key = echo_key
        self.hang = hang
        #: requests refused for their response_format (reject_json_schema), in arrival order
        self.refused: list[dict[str, Any]] = []
        self.received = 0
        self.answered = 0
        self.faults: dict[str, int] = {}
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.held = 0
        self.release = threading.Event()
        self._lock = threading.Lock()
        self._httpd: _Server | None = None

    # --- lifecycle -----------------------------------------------------------------------------
    def __enter__(self) -> OpenAIServer:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                # headers and body go out in separate writes: without this, Nagle + delayed ACK add 40 ms
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:  # noqa: N802
                server._handle(self)

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.release.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    @property
    def port(self) -> int:
        assert self._httpd is not None
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # --- one request ---------------------------------------------------------------------------
    def _send(
        self,
        h: BaseHTTPRequestHandler,
        status: int,
        payload: bytes,
        headers: dict[str, str] | None = None,
        length: int | None = None,
    ) -> None:
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(payload) if length is None else length))
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(payload)
            h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        n = int(h.headers.get("Content-Length") or 0)
        body = json.loads(h.rfile.read(n) or b"{}")
        with self._lock:
            self.received += 1
            index = self.received
            self.bodies.append(body)
            self.headers.append(dict(h.headers))
            hold = self.hold_after is not None and self.answered >= self.hold_after
            if hold:
                self.held += 1
        if hold or self.hang:
            self.release.wait()
            h.close_connection = True
            return
        fmt = (body.get("response_format") or {}).get("type")
        if self.reject_json_schema and fmt == "json_schema":
            with self._lock:
                self.refused.append(body)
            return self._send(h, 500, json.dumps(LLAMA_CPP_REFUSAL).encode())
        if self.reject_json_object and fmt == "json_object":  # as an older server: no JSON mode at all
            with self._lock:
                self.refused.append(body)
            err = {"error": {"message": "response_format is not supported", "type": "invalid_request_error"}}
            return self._send(h, 400, json.dumps(err).encode())
        kind = self.fault(body, index) if self.fault else None
        if kind:
            with self._lock:
                self.faults[kind] = self.faults.get(kind, 0) + 1
        if kind == "429":
            err = json.dumps({"error": {"message": "rate limited", "type": "rate_limit"}}).encode()
            return self._send(h, 429, err, {"Retry-After": self.retry_after})
        if kind == "500":
            return self._send(h, 500, b'{"error": {"message": "boom", "type": "server_error"}}')
        if kind == "timeout":
            time.sleep(self.timeout_sleep)
            return self._send(h, 500, b'{"error": {"message": "too late"}}')
        if kind == "400":
            return self._send(h, 400, b'{"error": {"message": "bad request", "type": "invalid_request_error"}}')
        if kind == "401":
            return self._send(h, 401, b'{"error": {"message": "invalid api key", "type": "invalid_request_error"}}')
        if kind == "echo_auth":  # a hostile server that puts the key it received into its answer
            text = f"your key is {h.headers.get('Authorization', '')}"
            payload = {
                "id": "x",
                "object": "chat.completion",
                "created": 1700000000,
                "model": "echo",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            }
            return self._send(h, 200, json.dumps(payload).encode())
        if kind == "malformed":
            return self._send(h, 200, b"<html>not json at all")
        if kind == "truncated":
            h.close_connection = True
            return self._send(h, 200, b'{"id": "x", "choices": [{"ind', length=400)
        if self.latency:
            time.sleep(self.latency)
        text = self.reply(body)
        key = h.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        echo = f"-{key}" if self.echo_key else ""
        if self.echo_key:
            text = f"{text} {key}" if not text.lstrip().startswith("{") else text
        prompt_tokens = max(1, len(all_text(body)) // 4)
        payload = {
            "id": f"chatcmpl-{index}{echo}",
            "object": "chat.completion",
            "created": 1700000000,
            "model": body.get("model", "scripted") + echo,
            **({"system_fingerprint": f"fp{echo}", "service_tier": key} if self.echo_key else {}),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": max(1, len(text) // 4),
                "total_tokens": prompt_tokens + max(1, len(text) // 4),
            },
        }
        with self._lock:
            self.answered += 1
        headers = {"x-request-id": key, "openai-organization": key} if self.echo_key else None
        self._send(h, 200, json.dumps(payload).encode(), headers)


def transient_faults(rate: float = 0.2, seed: int = 0, kinds: tuple[str, ...] = ("429", "500", "timeout")) -> Fault:
    """A fault for a fraction of requests, drawn from a seeded stream (mixed kinds)."""
    rng = random.Random(seed)
    lock = threading.Lock()

    def fault(body: dict[str, Any], index: int) -> str | None:
        with lock:
            if rng.random() < rate:
                return rng.choice(kinds)
        return None

    return fault


def schelling_reply(body: dict[str, Any]) -> str:
    """A default scripted Schelling player: posts 'ID -> hold', then stays."""
    import re

    text = last_user_text(body)
    me = re.search(r"you (\d+)", text)
    if "Coordination phase" in text:
        return f"{me.group(1) if me else '?'} -> hold"
    return '{"stay": true}'


def main() -> None:
    """Serve in its own process (benchmarks: the client's event loop gets the GIL to itself).
    Prints the port on stdout, then serves until killed."""
    import argparse
    import sys

    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=0.3)
    args = ap.parse_args()
    srv = OpenAIServer(reply=schelling_reply, latency=args.latency)
    srv.start()
    print(srv.port, flush=True)
    try:
        sys.stdin.read()  # until the parent closes our stdin
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
