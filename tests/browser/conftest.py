"""Fixtures of the browser tests: Debian's Chromium driven by Playwright, at phone size."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

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
    try:
        with sync_playwright() as pw:
            yield pw
    finally:
        # The ORM calls made while Playwright's loop ran have connections of their own (Django
        # keeps connections per async context): close them, or the test database cannot be
        # dropped.
        connections.close_all()


@pytest.fixture
def browser(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Any]:
    """A Chromium context with a fresh profile, at phone size."""
    with _playwright(skip_or_fail, monkeypatch) as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=PHONE,
        )
        context.set_default_timeout(15_000)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def chromium(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Any]]:
    """Opens Chromium contexts at phone size with a browser language (``locale``, sent as
    Accept-Language) and other Playwright context options (``java_script_enabled``)."""
    with _playwright(skip_or_fail, monkeypatch) as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

        def context(locale: str = "it-IT", **options: Any) -> Any:
            opened = launched.new_context(locale=locale, **{"viewport": PHONE, **options})
            opened.set_default_timeout(15_000)
            return opened

        try:
            yield context
        finally:
            launched.close()
