"""What a dashboard page may make the server do: the server's environment and files are not the
page's. Key variables come only from the allow-list the server was started with, endpoints only
from that list or loopback, replays only from the replay directory, and the websocket refuses a
page from another origin (a foreign site in the user's browser must not drive the controls).
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mam_bench.errors import ConfigError

#: set by `mam-bench dashboard` for the Solara process (comma-separated; path)
ENV_ALLOW_KEYS, ENV_ALLOW_URLS, ENV_REPLAY_DIR = (
    "MAM_DASHBOARD_ALLOW_KEYS",
    "MAM_DASHBOARD_ALLOW_URLS",
    "MAM_DASHBOARD_REPLAY_DIR",
)


def _listed(name: str) -> tuple[str, ...]:
    return tuple(x for x in os.environ.get(name, "").split(",") if x)


def allowed_key_envs() -> tuple[str, ...]:
    return _listed(ENV_ALLOW_KEYS)


def allowed_base_urls() -> tuple[str, ...]:
    return tuple(u.rstrip("/") for u in _listed(ENV_ALLOW_URLS))


def is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_base_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError("base_url", "expected an http(s) URL")
    if url.rstrip("/") in allowed_base_urls() or is_loopback_host(parts.hostname):
        return
    raise ConfigError(
        "base_url",
        "only loopback endpoints or those the server was started with (`mam-bench dashboard --allow-base-url URL`)",
    )


def check_llm_choice(model: str, base_url: str, api_key_env: str) -> None:
    """The llm controller may use a key variable only if allowed, and send it only to an allowed endpoint."""
    if base_url:
        check_base_url(base_url)
    if api_key_env and api_key_env not in allowed_key_envs():
        raise ConfigError(
            "api_key_env",
            "this key variable is not allowed; start the dashboard with `--allow-key-env NAME` to offer it",
        )
    provider = model.partition(":")[0]
    if not base_url and not api_key_env and provider != "local":
        # the provider's SDK would read its default key variable (OPENAI_API_KEY...) from the server
        raise ConfigError("api_key_env", "name an allowed key variable (or use a loopback --base-url)")


def replay_root() -> Path:
    return Path(os.environ.get(ENV_REPLAY_DIR) or "runs").resolve()


def check_replay_path(path: str) -> str:
    root = replay_root()
    target = (root / path).resolve() if not Path(path).is_absolute() else Path(path).resolve()
    if target != root and root not in target.parents:
        raise ConfigError("replay", f"only runs under the replay directory {root} can be replayed")
    return str(target)


def origin_allowed(headers: dict[str, str]) -> bool:
    """A browser's websocket must come from this very server's page (loopback host, same port).

    `null` (sandboxed frames, file:// pages) is refused; a client without Origin is not a browser
    page, so no foreign site can be behind it."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.netloc != host:
        return False
    return is_loopback_host(parts.hostname)


#: websockets open at once, at most: each holds a page's live session (threads, descriptors); one
#: past it is closed with 1013 (try again later) instead of growing the server without bound
MAX_WEBSOCKETS = 64
_open = {"websockets": 0}


def _guard(app: Any) -> Any:
    async def guarded(scope: dict, receive: Any, send: Any) -> None:
        if scope.get("type") in ("websocket", "http"):
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            if not origin_allowed(headers):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                else:  # a POST from a foreign page (close or evict a kernel): refused like the websocket
                    await send(
                        {"type": "http.response.start", "status": 403, "headers": [(b"content-type", b"text/plain")]}
                    )
                    await send({"type": "http.response.body", "body": b"forbidden origin"})
                return
        if scope.get("type") != "websocket":
            await app(scope, receive, send)
            return
        if _open["websockets"] >= MAX_WEBSOCKETS:
            await send({"type": "websocket.close", "code": 1013})
            return
        _open["websockets"] += 1
        try:
            await app(scope, receive, send)
        finally:
            _open["websockets"] -= 1

    guarded.__wrapped_by_origin_check__ = True  # type: ignore[attr-defined]
    return guarded


def install_origin_check() -> int:
    """Wrap every websocket route and every route that changes state (POST: close or evict a
    kernel) of Solara's Starlette app; returns how many were wrapped."""
    from solara.server import starlette as server
    from starlette.routing import Route, WebSocketRoute

    n = 0
    for route in server.app.routes:
        changes = isinstance(route, Route) and bool({"POST", "PUT", "DELETE", "PATCH"} & set(route.methods or ()))
        if (isinstance(route, WebSocketRoute) or changes) and not getattr(
            route.app, "__wrapped_by_origin_check__", False
        ):
            route.app = _guard(route.app)
            n += 1
    return n
