"""Shared test helpers.

Tests that need an outside service (PostgreSQL, Redis, ...) call the
``require_service`` fixture: the test is skipped when the service is not
reachable, unless POTDEVIN_REQUIRE_SERVICES=1 (as in CI), where it fails.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest

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
