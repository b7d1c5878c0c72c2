"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, at phone size."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from django.db.backends.signals import connection_created
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler

from tests.browser.pages import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, PHONE


@contextmanager
def _playwright(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """Playwright, with Debian's Chromium; fails in CI when either is missing
    (POTDEVIN_REQUIRE_SERVICES=1), skips elsewhere."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("Playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        skip_or_fail(f"Chromium not found at {CHROMIUM} (make browser installs it)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    ARTIFACTS.mkdir(exist_ok=True)
    # While Playwright's loop runs, the test's own ORM calls may run in a copy of the context
    # (its callbacks resume the test's greenlet), and Django keeps a connection per context:
    # close_all() from here would not reach them, and one left open keeps the test database
    # from being dropped. Every connection this thread opens meanwhile is closed by name
    # instead (the live server's threads close their own).
    opened: list[Any] = []
    test_thread = threading.get_ident()

    def remember(sender: Any, connection: Any, **kwargs: Any) -> None:
        if threading.get_ident() == test_thread:
            opened.append(connection)

    connection_created.connect(remember)
    try:
        with sync_playwright() as pw:
            yield pw
    finally:
        connection_created.disconnect(remember)
        connections.close_all()
        for connection in opened:
            connection.close()


def _on_profile(pw: Any, profile: Path, **options: Any) -> Any:
    """Debian's Chromium on the profile in ``profile``, at phone size, with these context
    options."""
    context = pw.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        **options,
    )
    context.set_default_timeout(15_000)
    return context


@pytest.fixture
def browser(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Any]:
    """A Chromium context with a fresh profile, at phone size."""
    with _playwright(skip_or_fail, monkeypatch) as pw:
        # The service worker only where a test is about it (test_browser_offline).
        context = _on_profile(pw, tmp_path / "profile", service_workers="block")
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def phone_profile(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Callable[..., Any]]:
    """Opens Chromium on one phone's profile, at phone size: a context closed and opened again
    keeps what the phone kept (its service worker, its caches, IndexedDB), as a browser closed
    and started again does. Takes a browser language (``locale``) and other context options
    (``offline``); the service worker runs."""
    with _playwright(skip_or_fail, monkeypatch) as pw:

        def context(locale: str = "it-IT", **options: Any) -> Any:
            return _on_profile(
                pw, tmp_path / "phone", locale=locale, service_workers="allow", **options
            )

        yield context


@pytest.fixture
def chromium(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Any]]:
    """Opens Chromium contexts at phone size with a browser language (``locale``, sent as
    Accept-Language) and other Playwright context options (``java_script_enabled``)."""
    with _playwright(skip_or_fail, monkeypatch) as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

        def context(locale: str = "it-IT", **options: Any) -> Any:
            # The service worker only where a test asks for it (test_browser_offline).
            options = {"viewport": PHONE, "service_workers": "block", **options}
            opened = launched.new_context(locale=locale, **options)
            opened.set_default_timeout(15_000)
            return opened

        try:
            yield context
        finally:
            launched.close()


class _ClosingServer(ThreadedWSGIServer):
    """Django's threaded test server, stopped as a process is: its open connections close with
    it (a keep-alive connection would go on answering), and it binds with SO_REUSEADDR, as its
    accepted connections then do, so that it starts again on the same port at once (Django's
    test server binds without it, and its closed connections hold the port for a minute)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._lock:
            still_open = list(self._open)
        for connection in still_open:
            with suppress(OSError):  # closed meanwhile
                connection.shutdown(socket.SHUT_RDWR)


class _StoppableThread(LiveServerThread):
    def _create_server(self, connections_override: Any = None) -> _ClosingServer:
        return _ClosingServer(
            (self.host, self.port),
            QuietWSGIRequestHandler,
            allow_reuse_address=True,
            connections_override=connections_override,
        )

    def terminate(self) -> None:
        if hasattr(self, "httpd"):
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd.close_connections()
        self.join()


class StoppableServer:
    """The site, served as ``live_server`` serves it (the same database and static files), by
    a server the test stops and starts again on the same address: stopped, every connection
    to it is refused, as when the process is down."""

    def __init__(self, like: Any) -> None:
        self._like = like.thread
        self._thread: _StoppableThread | None = None
        self.port = 0
        self.start()

    def start(self) -> None:
        thread = _StoppableThread(
            self._like.host,
            static_handler=self._like.static_handler,
            connections_override=self._like.connections_override,
            port=self.port,
        )
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        self.port = thread.port
        self._thread = thread

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.terminate()
            self._thread = None

    @property
    def url(self) -> str:
        return f"http://{self._like.host}:{self.port}"


@pytest.fixture
def stoppable_server(live_server: Any) -> Iterator[StoppableServer]:
    """The site on a server the test can stop and start again (``stop()``, ``start()``)."""
    server = StoppableServer(live_server)
    try:
        yield server
    finally:
        server.stop()
