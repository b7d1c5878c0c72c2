"""The services the suite runs against are the ones asked for."""

import os
from collections.abc import Callable

import pytest
from django.db import connection

POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql", "postgis"}


def _database_scheme() -> str:
    return os.environ.get("DATABASE_URL", "").strip().split(":", 1)[0].lower()


@pytest.mark.django_db
def test_database_vendor_matches_database_url(require_service: Callable[[str, str], None]) -> None:
    scheme = _database_scheme()
    if scheme in POSTGRES_SCHEMES:
        require_service("PostgreSQL", os.environ["DATABASE_URL"])
        assert connection.vendor == "postgresql"
    elif scheme in {"", "sqlite"}:
        assert connection.vendor == "sqlite"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def _closed_port_url() -> str:
    # Port 1 on loopback: nothing listens there, so the connect is refused at once.
    return "redis://127.0.0.1:1/0"


def test_require_service_skips_locally(
    monkeypatch: pytest.MonkeyPatch, require_service: Callable[[str, str], None]
) -> None:
    monkeypatch.delenv("POTDEVIN_REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_service("Redis", _closed_port_url())


def test_require_service_fails_when_services_required(
    monkeypatch: pytest.MonkeyPatch, require_service: Callable[[str, str], None]
) -> None:
    monkeypatch.setenv("POTDEVIN_REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="POTDEVIN_REQUIRE_SERVICES"):
        require_service("Redis", _closed_port_url())
