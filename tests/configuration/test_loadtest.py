"""The fault tests of `make loadtest`, short enough for CI: under load from concurrent clients,
a web worker killed with SIGKILL mid-request, the database restarted (a PostgreSQL cluster of
the test's own) and the broker restarted while a re-score job runs. The load test checks no 5xx
but the 503s owed while the database restarts, one stored entry per race, every game equal to
a fresh replay, and the re-score job done with every game scored once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable

import pytest
from django.db import connection

from loadtest.services import PG_BIN
from tests.paths import ROOT

# Its own PostgreSQL cluster: a test of the PostgreSQL pass, though it asks for no database.
pytestmark = [pytest.mark.slow, pytest.mark.database]


def test_load_with_every_fault_keeps_every_check(skip_or_fail: Callable[[str], None]) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("runs once per CI run, in its PostgreSQL pass")
    missing = [
        tool
        for tool in (str(PG_BIN / "initdb"), str(PG_BIN / "pg_ctl"), "redis-server", "runuser")
        if shutil.which(tool) is None
    ]
    if missing:
        skip_or_fail(f"the load test needs {', '.join(missing)}")
    command = [sys.executable, "-m", "loadtest", "--seconds", "25", "--writers", "4"]
    for fault in ("kill-worker", "restart-db", "restart-broker"):
        command += ["--fault", fault]
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    print(done.stdout)  # the figures, in the test's output
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "checks: all passed" in done.stdout
    assert "answers 503 unavailable while the database restarted" in done.stdout
    assert "re-score job across the broker restart: done" in done.stdout
