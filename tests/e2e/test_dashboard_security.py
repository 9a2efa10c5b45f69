"""The dashboard sends no key to a server it was not told about, and its
websocket refuses pages from other origins. A capture server (loopback, OpenAI-compatible)
counts every request it receives; the dashboard runs with SECRET_TOKEN in its environment."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DashboardServer, worker_log
from tests.e2e.pages import open_paired
from tests.support.openai_server import OpenAIServer, schelling_reply

pytestmark = pytest.mark.e2e
SECRET = "sk-capture-test-0123456789abcdef"


@pytest.fixture(scope="module")
def capture() -> Iterator[OpenAIServer]:
    with OpenAIServer(reply=schelling_reply) as srv:
        yield srv


@pytest.fixture(scope="module")
def locked_server(shots: Path) -> Iterator[DashboardServer]:
    """A dashboard started with no --allow-key-env (the default) and a secret in its environment."""
    os.environ["SECRET_TOKEN"] = SECRET
    try:
        srv = DashboardServer("schelling", log=worker_log(shots, "security-server"))
    finally:
        os.environ.pop("SECRET_TOKEN", None)
    yield srv
    srv.stop()


def handshake(port: int, origin: str | None) -> int:
    """The HTTP status of a websocket upgrade to Solara's kernel channel with this Origin."""
    lines = [
        "GET /jupyter/api/kernels/k1/channels?session_id=s1 HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = s.recv(4096).split(b"\r\n", 1)[0]
    return int(status.split()[1])


def test_foreign_origins_are_refused_at_the_handshake(locked_server) -> None:
    port = locked_server.port
    assert handshake(port, "http://evil.example") == 403
    assert handshake(port, "null") == 403
    assert handshake(port, f"http://127.0.0.1:{port + 1}") == 403  # another local port is another origin
    assert handshake(port, f"http://127.0.0.1:{port}") == 101  # the dashboard's own page


def _choose_llm(page: Page) -> None:
    page.locator(".mam-controls .v-select").filter(has_text="controller").click()
    page.locator(".v-menu__content .v-list-item").filter(has_text="llm").first.click()
    expect(page.get_by_label("model (provider:model)")).to_be_visible(timeout=60_000)


def _type(page: Page, label: str, text: str) -> None:
    box = page.get_by_label(label)
    box.fill(text)
    box.press("Enter")


def test_non_allowed_key_or_url_is_refused_and_nothing_is_sent(locked_server, capture, browser, shots) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1400})
    page = ctx.new_page()
    try:
        open_paired(page, locked_server.url + "/")
        _choose_llm(page)
        error = page.locator(".mam-error")
        _type(page, "model (provider:model)", "openai:gpt-4o-mini")
        # no endpoint and no key variable: the SDK would read OPENAI_API_KEY from the server, refused
        expect(error).to_contain_text("api_key_env: name an allowed key variable", timeout=60_000)
        _type(page, "base URL (OpenAI-compatible, optional)", capture.base_url)
        expect(page.locator(".mam-round")).to_be_visible(timeout=60_000)  # loopback, no key: allowed
        _type(page, "API key variable name (the key stays in the environment)", "SECRET_TOKEN")
        expect(error).to_contain_text("api_key_env: this key variable is not allowed", timeout=60_000)
        assert page.locator(".mam-step").count() == 0
        page.screenshot(path=str(shots / "security-key-refused.png"), full_page=True)

        _type(page, "API key variable name (the key stays in the environment)", "")
        expect(page.locator(".mam-round")).to_be_visible(timeout=60_000)
        _type(page, "base URL (OpenAI-compatible, optional)", "http://192.0.2.10:8080/v1")
        expect(error).to_contain_text("base_url: only loopback endpoints", timeout=60_000)
        page.screenshot(path=str(shots / "security-url-refused.png"), full_page=True)
        assert SECRET not in page.inner_text("body")
    finally:
        ctx.close()
    assert capture.received == 0
