"""Shared test helpers.

Tests that need an outside service (PostgreSQL, Redis, ...) call the
``require_service`` fixture: the test is skipped when the service is not
reachable, unless POTDEVIN_REQUIRE_SERVICES=1 (as in CI), where it fails.

The engine may be compiled with mypyc beside its sources (``make``). With
POTDEVIN_PURE_ENGINE=1 the engine imports its plain Python sources instead (see
scoring/engine/__init__.py), so both builds are tested; a compiled module older
than its source fails the run rather than testing stale code.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings

from tests.accounts import make_user

ENGINE_DIR = Path(__file__).resolve().parents[1] / "scoring" / "engine"

if not os.environ.get("CELERY_BROKER_URL"):
    # A bare `pytest` (not `make test`) would queue its tasks in the developer's own folder
    # queue under var/; they go to Celery's in-memory transport instead.
    from potdevin_site.celery import app as _celery_app

    _celery_app.conf.broker_url = "memory://"
# Ratings are recomputed in the test process when a change commits, not queued for a worker.
# (pytest-django has read the settings before this module runs: an environment variable set
# here would come too late.)
django_settings.POTDEVIN_RATINGS_SYNC = True


def _stale_compiled_modules() -> list[str]:
    # Compiled code lives in the shared _native library; the per-module .so files are shims.
    natives = list(ENGINE_DIR.glob("_native__mypyc*.so"))
    if not natives:
        return []
    built = min(n.stat().st_mtime for n in natives)
    stale = []
    for shim in ENGINE_DIR.rglob("*.so"):
        source = shim.with_name(shim.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built:
            stale.append(str(source.relative_to(ENGINE_DIR.parents[1])))
    return stale


def pytest_configure(config: pytest.Config) -> None:
    # POTDEVIN_PURE_ENGINE=1 is read by scoring.engine itself when first imported.
    if os.environ.get("POTDEVIN_PURE_ENGINE") != "1":
        stale = _stale_compiled_modules()
        if stale:
            raise pytest.UsageError(
                "the compiled engine is older than " + ", ".join(stale) + ": run `make venv` "
                "to rebuild it, or set POTDEVIN_PURE_ENGINE=1"
            )


BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
# pytest-django refuses the database to a test that asks for none of these (or no django_db
# mark): a test without them touches no database.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Markers found from where a test lives and what it asks for, so no test has to say them:
    # `-m "not browser"` leaves the browser tests out, `-m database` keeps only the tests that
    # touch the database (CI runs the others once, not once per database).
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.database)


DEFAULT_PORTS = {
    "postgres": 5432,
    "postgresql": 5432,
    "pgsql": 5432,
    "redis": 6379,
    "rediss": 6379,
    "amqp": 5672,
    "mysql": 3306,
}


def services_required() -> bool:
    return os.environ.get("POTDEVIN_REQUIRE_SERVICES", "").strip().lower() in {"1", "true", "yes"}


def service_unreachable(url: str, timeout: float = 2.0) -> str | None:
    """Why the service at url cannot be reached, or None when a TCP connect succeeds."""
    parts = urlsplit(url)
    scheme = parts.scheme.split("+")[0]
    host = parts.hostname or "127.0.0.1"
    try:
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError as exc:
        return f"bad URL {url!r}: {exc}"
    if port is None:
        return f"no known port for scheme {scheme!r}"
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as exc:
        return f"{host}:{port}: {exc}"


def require_service(name: str, url: str) -> None:
    problem = service_unreachable(url)
    if problem is None:
        return
    message = f"{name} not reachable ({problem})"
    if services_required():
        pytest.fail(f"{message}; POTDEVIN_REQUIRE_SERVICES=1 forbids skipping", pytrace=False)
    pytest.skip(message)


@pytest.fixture(name="require_service")
def require_service_fixture() -> Callable[[str, str], None]:
    """Usage: ``def test_x(require_service): require_service("Redis", url)``."""
    return require_service


@pytest.fixture(name="skip_or_fail")
def skip_or_fail_fixture() -> Callable[[str], None]:
    """Usage: ``skip_or_fail("why")``: skips locally, fails where services are required."""

    def skip_or_fail(message: str) -> None:
        if services_required():
            pytest.fail(f"{message}; POTDEVIN_REQUIRE_SERVICES=1 forbids skipping", pytrace=False)
        pytest.skip(message)

    return skip_or_fail


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    """Rate limit counts (the API's throttles, the pages' limits) live in the cache: every
    test starts and ends with none."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _english_to_start() -> None:
    """Each test starts in the source language: a page asked for in Italian leaves Italian
    active on the test's thread (the language middleware sets each request's own), and a
    service called next would answer in it."""
    from django.utils import translation

    translation.activate("en")


@pytest.fixture
def user(db: None) -> Any:
    return make_user("alice")


@pytest.fixture
def other_user(db: None) -> Any:
    """Reads the club's games (a member) but records none of them."""
    return make_user("bob", role="member")


@pytest.fixture
def staff_user(db: None) -> Any:
    return make_user("carol", is_staff=True)
