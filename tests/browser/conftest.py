"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, at phone size."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.db.backends.signals import connection_created

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
