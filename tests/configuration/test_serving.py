"""The servers the README offers keep database connections bounded: `make run`'s runserver
(a thread per request) and `make serve`'s gunicorn (sync workers). Each is started for real on
this test's PostgreSQL database and sent bursts of requests that touch the database; then the
connections it still holds are counted in pg_stat_activity."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tests.paths import ROOT

REPO_ROOT = ROOT
WEB_WORKERS = 3

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_url() -> str:
    d = connection.settings_dict
    return f"postgres://{d['USER']}@{d['HOST'] or '127.0.0.1'}:{d['PORT'] or 5432}/{d['NAME']}"


def _server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        (count,) = cursor.fetchone()
    return int(count)


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as response:
        return int(response.status)


@pytest.fixture
def postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("counts PostgreSQL's connections (the CI runs it on PostgreSQL)")


def _serve(command: list[str], port: int, extra_env: dict[str, str]) -> Iterator[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_CONN_MAX_AGE"}
    env.update(DATABASE_URL=_database_url(), DEBUG="1", **extra_env)
    server = subprocess.Popen(
        command, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(f"{base}/api/health/")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError(f"{command[1:3]} did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def _bursts(base: str) -> None:
    for _ in range(60):  # one after another, as the issue saw them pile up
        assert _get(f"{base}/api/ready/") == 200
    with ThreadPoolExecutor(max_workers=12) as pool:  # and many at once
        assert set(pool.map(_get, [f"{base}/api/ready/"] * 120)) == {200}


def test_runserver_closes_its_connections(postgres: None) -> None:
    port = _free_port()
    command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    for base in _serve(command, port, {}):
        _bursts(base)
        time.sleep(0.5)  # the last request's thread closes its connection as it ends
        assert _server_connections() == 0


def test_gunicorn_holds_at_most_one_connection_per_worker(postgres: None) -> None:
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        "potdevin_site/gunicorn.conf.py",
        "potdevin_site.wsgi",
    ]
    extra = {
        "PORT": str(port),
        "WEB_WORKERS": str(WEB_WORKERS),
        "DATABASE_CONN_MAX_AGE": "60",
    }
    for base in _serve(command, port, extra):
        _bursts(base)
        assert 1 <= _server_connections() <= WEB_WORKERS
